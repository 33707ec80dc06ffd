import ArgumentParser
import CrashtrailCollector
import CrashtrailCore
import Foundation

/// `crashtrail list [--reports]`
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the stored crash groups, or the reports.",
        discussion: """
            Groups are crashes with the same signature, most frequent first, then the most recently seen; each has an \
            ID (the first 12 hex digits of the SHA-256 of its signature) that `list --group`, `show` and `paths` \
            take, or any unique prefix of it. With --reports, every stored report is listed, newest first; with \
            --group, the reports of one group. Examples:

              crashtrail list
              crashtrail list --reports --format json
              crashtrail list --group 3f2a
              crashtrail list --app com.example.piratebay --version 3.2.0 \\
                --since 2026-11-01 --limit 10
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Flag(name: .long, help: "List the reports instead of the crash groups.")
    var reports = false

    @Option(name: .long, help: ArgumentHelp("List the reports of one crash group: its ID or a unique prefix of it.", valueName: "id"))
    var group: String?

    @Option(name: .long, help: ArgumentHelp("Only crashes of this app (its bundle ID).", valueName: "bundle-id"))
    var app: String?

    @Option(name: .long, help: ArgumentHelp("Only crashes of this app version, as the report gives it (3.1.0).", valueName: "version"))
    var version: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Only crashes at or after this time: a date (2026-11-02, from its start, UTC) or an RFC 3339 time.", valueName: "time"))
    var since: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Only crashes at or before this time: a date (2026-11-02, through its end, UTC) or an RFC 3339 time.", valueName: "time"))
    var until: String?

    @Option(name: .long, help: ArgumentHelp("List at most this many groups or reports, the first in list order.", valueName: "n"))
    var limit: Int?

    @Option(name: .long, help: "The output format: text or json.")
    var format: OutputFormat = .text

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit takes a count of 1 or more, for example --limit 20") }
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
    }

    /// The filter the options ask for.
    var filter: ReportFilter {
        ReportFilter(
            bundleID: app, appVersion: version, since: since.flatMap { TimeBound($0, endOfDay: false)?.milliseconds },
            until: until.flatMap { TimeBound($0, endOfDay: true)?.milliseconds })
    }

    func run() async throws {
        do {
            let store = try storeOptions.open()
            var filter = self.filter
            if reports || group != nil {
                if let group { filter.signature = try store.group(matchingPrefix: group).signature }
                let list = Array(try store.reports(filter).prefix(limit ?? Int.max))
                switch format {
                case .json: print(CanonicalJSON.string(of: .array(list.map(Self.jsonValue(ofReport:)))))
                case .text: print(list.isEmpty && filter != .all ? Self.noMatch : Self.text(ofReports: list))
                }
            } else {
                let groups = Array(try store.groups(filter).prefix(limit ?? Int.max))
                switch format {
                case .json: print(CanonicalJSON.string(of: .array(groups.map(\.jsonValue))))
                case .text: print(groups.isEmpty && filter != .all ? Self.noMatch : Self.text(ofGroups: groups))
                }
            }
        } catch {
            printFailure(error)
            throw ExitCode.failure
        }
    }

    /// A report as `list --reports --format json` writes it.
    static func jsonValue(ofReport report: CrashReport) -> JSONValue {
        .object([
            "id": .string(report.id), "time": report.time.map(JSONValue.string) ?? .null,
            "format": .string(report.format.rawValue), "signature": .string(report.signature),
            "exception": report.exception.jsonValue, "trailInfo": report.trailInfo.jsonValue,
        ])
    }

    /// What the text says when the store has crashes but none passes the filters.
    static let noMatch = "No stored crash matches these filters; `crashtrail list` without them lists every group."

    /// The width the text tables fit.
    static let width = 100

    static func text(ofGroups groups: [CrashGroup]) -> String {
        guard !groups.isEmpty else { return "No crashes stored yet. Run crashtrail ingest PATH… first." }
        var lines = ["GROUP        COUNT TRAILS LAST SEEN (UTC)   VERSIONS      SIGNATURE"]
        for group in groups {
            let versions = group.versions.joined(separator: ",")
            let head =
                fit(group.id, 13) + fit(String(group.count), 6) + fit("\(group.withTrail)", 7) + fit(minutes(group.lastSeen), 18)
                + fit(versions.isEmpty ? "-" : versions, 14)
            lines.append(head + fit(group.signature, width - head.count, padded: false))
        }
        return lines.joined(separator: "\n")
    }

    static func text(ofReports reports: [CrashReport]) -> String {
        guard !reports.isEmpty else { return "No crashes stored yet. Run crashtrail ingest PATH… first." }
        var lines = ["TIME (UTC)        FORMAT          TRAIL        GROUP        ID"]
        for report in reports {
            let trail = report.trailInfo.steps.map { "\(report.trailInfo.source.rawValue) \($0)" } ?? report.trailInfo.source.rawValue
            let head =
                fit(minutes(report.time), 18) + fit(report.format.rawValue, 16) + fit(trail, 13)
                + fit(CrashGroup.id(ofSignature: report.signature), 13)
            // A long ID is cut: any unique prefix of it names the report.
            lines.append(head + fit(report.id, width - head.count, padded: false))
        }
        return lines.joined(separator: "\n")
    }

    /// An RFC 3339 time to the minute (`2026-11-02 08:31`), or `-`.
    static func minutes(_ time: String?) -> String {
        guard let time, time.count >= 16 else { return time ?? "-" }
        return time.prefix(10) + " " + time.dropFirst(11).prefix(5)
    }

    /// `text` in a column of `width` characters: cut with an ellipsis when longer (leaving a space), padded unless
    /// it is the last column.
    static func fit(_ text: String, _ width: Int, padded: Bool = true) -> String {
        let room = padded ? width - 1 : width
        let cut = text.count > room ? String(text.prefix(max(0, room - 1))) + "…" : text
        return padded ? cut + String(repeating: " ", count: max(0, width - cut.count)) : cut
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
