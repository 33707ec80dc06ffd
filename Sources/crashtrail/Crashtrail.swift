import ArgumentParser

/// The `crashtrail` command, which answers how the user got to a crash.
@main
struct Crashtrail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crashtrail",
        abstract: "Attach navigation trails to iOS crashes, group them, and replay how the user got there.",
        discussion: """
            Ingest a day's crash payloads into the default SQLite store, then replay one:

              crashtrail ingest Samples/reports \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail list
              crashtrail replay <report-id> --format text
            """,
        version: "0.1.0",
        subcommands: [
            IngestCommand.self,
            ReplayCommand.self,
            ListCommand.self,
            ShowCommand.self,
            PathsCommand.self,
            HealthCommand.self,
            ReportCommand.self,
            ReprocessCommand.self,
            GroupingCommand.self,
            GroupCommand.self,
            TrailCommand.self,
            JournalCommand.self,
            ManifestCommand.self,
            StoreCommand.self,
            ServeCommand.self,
            ProjectCommand.self,
            SymbolsCommand.self,
            ForwardCommand.self,
        ]
    )
}
