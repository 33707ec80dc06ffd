import ArgumentParser
import CrashtrailCore
import CrashtrailService
import CrashtrailStore

/// `crashtrail project limit PROJECT --events-per-minute N`.
struct ProjectLimitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limit",
        abstract: "Set how many events a minute crashtrail serve takes for a project.",
        discussion: """
            Past the limit, reports are answered 429 with Retry-After and X-Sentry-Rate-Limits, which Sentry's SDKs \
            honour. Running services read it within seconds. 0 clears the project's own limit, for the service's \
            default (serve --events-per-minute). Examples:

              crashtrail project limit ios-app --events-per-minute 600
              crashtrail project limit ios-app --events-per-minute 0
            """)

    @Argument(help: "The project's ID or name.")
    var project: String

    @Option(name: .long, help: "The most events a minute; 0 for the service's default.")
    var eventsPerMinute: Int

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard eventsPerMinute >= 0 else {
            throw ValidationError("--events-per-minute takes 0 (the service's default) or more, for example 600")
        }
    }

    func run() throws {
        let limited = try reportingFailure {
            try TriageService(location: storeOptions.location, creating: false).store.setProjectLimit(
                project, eventsPerMinute: eventsPerMinute == 0 ? nil : eventsPerMinute)
        }
        if let limit = limited.eventsPerMinute {
            print("Project \(limited.id) (\(limited.name)) takes at most \(limit) events a minute.")
        } else {
            print("Project \(limited.id) (\(limited.name)) takes the service's default rate (serve --events-per-minute).")
        }
    }
}
