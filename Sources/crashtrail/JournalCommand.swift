import ArgumentParser

/// `crashtrail journal`: record steps into a crash-safe journal, and recover or inspect one.
struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Record steps into a crash-safe journal, recover its trail, or inspect it.",
        discussion: """
            The journal is what the app-side recorder keeps (SPEC section 10): every step is in the file once \
            the call that records it returns, so the trail survives a crash or a kill. These commands are its \
            contract for tests and for apps not written in Swift.

              crashtrail journal record session.ctj --manifest piratebay.yml < steps.ndjson
              crashtrail journal recover session.ctj > trail.json
              crashtrail journal inspect session.ctj
            """,
        subcommands: [JournalRecordCommand.self, JournalRecoverCommand.self, JournalInspectCommand.self]
    )
}
