import ArgumentParser
import CrashtrailService
import Foundation

/// The `store` command: work with whole stores (`crashtrail store copy FROM TO`).
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Work with whole crash stores.",
        subcommands: [Copy.self]
    )

    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Copy every report, trail and manifest of one store into another, and verify the copy.",
            discussion: """
                FROM and TO are each an SQLite file or a postgres:// URL, so a store moves from one machine's \
                SQLite file to a shared PostgreSQL server and back. Reports keep their IDs; what TO holds already \
                is left as it is, so a copy that stopped can be run again. After the copy both stores are read \
                again and summed up (reports, joined trails, manifests and a SHA-256 over every report); the \
                command exits with status 1 unless TO holds exactly what FROM holds. The password of a \
                PostgreSQL store comes from PGPASSWORD or ~/.pgpass. Examples:

                  crashtrail store copy crashtrail.sqlite postgres://crashtrail@db:5432/crashes
                  crashtrail store copy postgres://crashtrail@db:5432/crashes local.sqlite
                """
        )

        @Argument(help: "The store to copy: an SQLite file or a postgres:// URL. It must exist.")
        var from: String

        @Argument(help: "The store to copy into: an SQLite file (made if missing) or a postgres:// URL.")
        var to: String

        @OptionGroup var quietOptions: QuietOptions

        func run() throws {
            let started = Date()
            let progress = ProgressLine(quiet: quietOptions.quiet)
            let result = try reportingFailure {
                try StoreCopyOperation.copy(
                    from: StoreLocation(from, willUpgrade: upgradeNotice), to: StoreLocation(to, willUpgrade: upgradeNotice)
                ) { progress.show("\($0) reports copied") }
            }
            progress.finish()
            if !quietOptions.quiet { print(result.text(seconds: Date().timeIntervalSince(started))) }
        }
    }
}
