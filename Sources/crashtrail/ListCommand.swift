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
            Groups are crashes with the same signature, most frequent first, then the most recently seen. With \
            --reports, every stored report is listed, newest first. Example:

              crashtrail list
              crashtrail list --reports --format json
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Flag(name: .long, help: "List the reports instead of the crash groups.")
    var reports = false

    @Option(name: .long, help: "The output format: text or json.")
    var format: OutputFormat = .text

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        do {
            let store = try storeOptions.open()
            if reports {
                let list = try store.reports()
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
        var lines = ["COUNT  TRAILS  LAST SEEN                VERSIONS        SIGNATURE"]
        for group in groups {
            let versions = group.versions.joined(separator: ",")
            lines.append(
                pad(String(group.count), 7) + pad("\(group.withTrail)", 8) + pad(group.lastSeen ?? "-", 25)
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
