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
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Flag(name: .long, help: "List the reports instead of the crash groups.")
    var reports = false

    @Option(name: .long, help: ArgumentHelp("List the reports of one crash group: its ID or a unique prefix of it.", valueName: "id"))
    var group: String?

    @Option(name: .long, help: "The output format: text or json.")
    var format: OutputFormat = .text

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        do {
            let store = try storeOptions.open()
            if reports || group != nil {
                let list = try group.map { prefix throws(StoreError) in try store.reports(signature: store.group(matchingPrefix: prefix).signature) }
                    ?? store.reports()
                switch format {
                case .json: print(CanonicalJSON.string(of: .array(list.map(Self.jsonValue(ofReport:)))))
                case .text: print(Self.text(ofReports: list))
                }
            } else {
                let groups = try store.groups()
                switch format {
                case .json: print(CanonicalJSON.string(of: .array(groups.map(\.jsonValue))))
                case .text: print(Self.text(ofGroups: groups))
                }
            }
        } catch let error as StoreError where error.code == .ambiguous {
            printError("Error: \(error.message). The candidates:")
            for candidate in error.candidates { printError("  \(candidate)") }
            throw ExitCode.failure
        } catch {
            printError("Error: \(error)")
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

    static func text(ofGroups groups: [CrashGroup]) -> String {
        guard !groups.isEmpty else { return "No crashes stored yet. Run crashtrail ingest PATH… first." }
        var lines = ["GROUP         COUNT  TRAILS  LAST SEEN                VERSIONS        SIGNATURE"]
        for group in groups {
            let versions = group.versions.joined(separator: ",")
            lines.append(
                pad(group.id, 14) + pad(String(group.count), 7) + pad("\(group.withTrail)", 8) + pad(group.lastSeen ?? "-", 25)
                    + pad(versions.isEmpty ? "-" : versions, 16) + group.signature)
        }
        return lines.joined(separator: "\n")
    }

    static func text(ofReports reports: [CrashReport]) -> String {
        guard !reports.isEmpty else { return "No crashes stored yet. Run crashtrail ingest PATH… first." }
        var lines = ["TIME                     FORMAT           TRAIL        ID  SIGNATURE"]
        for report in reports {
            let trail = report.trailInfo.steps.map { "\(report.trailInfo.source.rawValue) \($0)" } ?? report.trailInfo.source.rawValue
            lines.append(
                pad(report.time ?? "-", 25) + pad(report.format.rawValue, 17) + pad(trail, 13) + report.id + "  "
                    + report.signature)
        }
        return lines.joined(separator: "\n")
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
