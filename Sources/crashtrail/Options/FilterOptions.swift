import ArgumentParser
import CrashtrailService
import CrashtrailStore

/// `--app`, `--app-version`, `--since`, `--until`: which stored crashes a command takes.
struct FilterOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Only crashes of this app (its bundle ID).", valueName: "bundle-id"))
    var app: String?

    @Option(name: .long, help: ArgumentHelp("Only crashes of this app version, as the report gives it (3.1.0).", valueName: "version"))
    var appVersion: String?

    /// The old spelling of `--app-version` in `list`.
    @Option(name: .customLong("version"), help: .hidden)
    var legacyVersion: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only crashes at or after this time: a date (2026-11-02, from its start, UTC) or an RFC 3339 time.", valueName: "time"))
    var since: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only crashes at or before this time: a date (2026-11-02, through its end, UTC) or an RFC 3339 time.", valueName: "time"))
    var until: String?

    func validate() throws {
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, TimeBound(value, endOfDay: false) == nil {
                throw ValidationError(
                    "\(name) takes a date such as 2026-11-02 or an RFC 3339 time such as 2026-11-02T14:45:05Z, not \"\(value)\"")
            }
        }
        if let lower = since.flatMap({ TimeBound($0, endOfDay: false) }), let upper = until.flatMap({ TimeBound($0, endOfDay: true) }),
            lower.milliseconds > upper.milliseconds
        {
            throw ValidationError("--since \(since ?? "") is after --until \(until ?? ""): no crash can be in between")
        }
        if appVersion != nil, legacyVersion != nil { throw ValidationError("give --app-version once (--version is its old name)") }
    }

    /// The filter the options ask for.
    var filter: ReportFilter {
        ReportFilter(
            bundleID: app, appVersion: appVersion ?? legacyVersion, since: since.flatMap { TimeBound($0, endOfDay: false)?.milliseconds },
            until: until.flatMap { TimeBound($0, endOfDay: true)?.milliseconds })
    }
}
