import ArgumentParser
import CrashtrailService

/// `crashtrail health`: crash-free sessions and users per release (SPEC section 20).
struct HealthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Show crash-free sessions and users per release.",
        discussion: """
            serve counts the session and sessions items Sentry's SDKs send (release health) per project, release, \
            environment and hour: sessions started, crashed, abnormal (killed by the OS) and errored, and distinct \
            users by device ID. Each release shows its crash-free sessions and users as percentages with their \
            counts. Examples:

              crashtrail health
              crashtrail health --project ios --since 2026-11-01 --format json
              crashtrail health --release com.example.app@3.1.0+412
            """
    )

    @Option(help: "A project's ID or name; every project when absent.")
    var project: String?

    @Option(help: "Only this release (BUNDLE@VERSION+BUILD, as Sentry's SDKs name it).")
    var release: String?

    @Option(help: "Only sessions started from this date (2026-11-02, UTC) or RFC 3339 time on.")
    var since: String?

    @OptionGroup var output: OutputOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if let since, TimeBound(since, endOfDay: false) == nil {
            throw ValidationError("--since \(since) is neither a date (2026-11-02) nor an RFC 3339 time (2026-11-02T08:00:00Z)")
        }
    }

    func run() throws {
        let report = try reportingFailure {
            let service = try TriageService(location: storeOptions.location, creating: false)
            return try service.health(
                project: project, release: release, since: since.flatMap { TimeBound($0, endOfDay: false)?.milliseconds })
        }
        print(output.isJSON ? report.json : report.text, terminator: output.isJSON ? "\n" : "")
    }
}
