import CrashtrailCore
import CrashtrailReports
import CrashtrailStore

/// The text and JSON of crash listings (`crashtrail list`, `show GROUP`): groups and reports as tables for people,
/// and as the JSON SPEC section 8 names.
package enum ListingText {
    /// What the text says when the store has crashes but none passes the filters.
    package static let noMatch = "No stored crash matches these filters; `crashtrail list` without them lists every group."

    /// The groups as a table, or what to do when there are none.
    package static func text(ofGroups groups: [CrashGroup]) -> String {
        guard !groups.isEmpty else { return "No crashes stored yet. Run crashtrail ingest PATH… first." }
        var lines = ["GROUP        COUNT TRAILS LAST SEEN (UTC)   VERSIONS      SIGNATURE"]
        for group in groups {
            let versions = group.versions.joined(separator: ",")
            let head =
                TextTable.fit(group.id, 13) + TextTable.fit(String(group.count), 6) + TextTable.fit("\(group.withTrail)", 7)
                + TextTable.fit(TextTable.minutes(group.lastSeen), 18)
                + TextTable.fit(versions.isEmpty ? "-" : versions, 14)
            lines.append(head + TextTable.fit(group.signature, TextTable.width - head.count, padded: false))
        }
        return lines.joined(separator: "\n")
    }

    /// The reports as a table, or what to do when there are none.
    package static func text(ofReports reports: [CrashReport]) -> String {
        guard !reports.isEmpty else { return "No crashes stored yet. Run crashtrail ingest PATH… first." }
        var lines = ["TIME (UTC)        FORMAT          TRAIL        GROUP        ID"]
        for report in reports {
            let trail = report.trailInfo.steps.map { "\(report.trailInfo.source.rawValue) \($0)" } ?? report.trailInfo.source.rawValue
            let head =
                TextTable.fit(TextTable.minutes(report.time), 18) + TextTable.fit(report.format.rawValue, 16) + TextTable.fit(trail, 13)
                + TextTable.fit(CrashGroup.id(ofSignature: report.signature), 13)
            // A long ID is cut: any unique prefix of it names the report.
            lines.append(head + TextTable.fit(report.id, TextTable.width - head.count, padded: false))
        }
        return lines.joined(separator: "\n")
    }

    /// A report as `list --reports --format json` writes it.
    package static func jsonValue(ofReport report: CrashReport) -> JSONValue {
        .object([
            "id": .string(report.id), "time": report.time.map(JSONValue.string) ?? .null,
            "format": .string(report.format.rawValue), "signature": .string(report.signature),
            "exception": report.exception.jsonValue, "trailInfo": report.trailInfo.jsonValue,
        ])
    }
}
