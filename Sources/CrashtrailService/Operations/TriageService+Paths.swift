import CrashtrailCore
import CrashtrailReplay
import CrashtrailStore

/// Which paths lead to a crash (SPEC section 13), with the notes on what was left out.
public struct PathsResult: Sendable {
    /// The table of the last screens of each path.
    public var table: PathTable
    /// What the table covers: `group ID` or `all reports`.
    public var title: String
    /// Warnings and notes for people: manifest choices, reports left out and why.
    public var notes: [String]
}

extension TriageService {
    /// Replays every stored report with a trail (of the group whose ID starts with `group`, when given) and counts
    /// the last `screens` screens of each path.
    /// - Throws: `StoreError` (`not-found` or `ambiguous` for the group prefix).
    public func paths(group: String?, screens: Int, manifests: [Manifest]) throws -> PathsResult {
        let selected = try group.map { prefix throws(StoreError) in try store.group(matchingPrefix: prefix) }
        let reports = try store.reports(ReportFilter(signature: selected?.signature)).filter { $0.trailInfo.source.hasTrail }
        var paths: [(screens: [String], inferred: Bool)] = []
        var manifestsByApp = ManifestsByApp(manifests)
        var skipped: [String: Int] = [:]
        for report in reports {
            guard let json = try store.record(id: report.id)?.trail, let trail = try? Trail(json: Array(json.utf8)) else {
                skipped["report \(report.id): its stored trail cannot be read", default: 0] += 1
                continue
            }
            let app = trail.app.bundleID
            guard let manifest = manifestsByApp.manifest(for: app) else {
                skipped["no --manifest for the app \(app)", default: 0] += 1
                continue
            }
            paths.append((ScreenPath.names(of: trail, manifest: manifest), report.trailInfo.source == .inferred))
        }
        var notes = manifestsByApp.warnings
        for (why, count) in skipped.sorted(by: { $0.key < $1.key }) {
            notes.append("Note: \(count == 1 ? "1 report" : "\(count) reports") with a trail left out of the table: \(why)")
        }
        return PathsResult(
            table: PathTable(paths: paths, last: screens, reportsWithTrail: reports.count),
            title: selected.map { "group \($0.id)" } ?? "all reports", notes: notes)
    }
}
