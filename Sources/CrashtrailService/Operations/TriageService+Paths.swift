import CrashtrailCore
import CrashtrailReplay
import CrashtrailStore

/// Which paths lead to a crash (SPEC section 13), with the notes on what was left out.
public struct PathsResult: Sendable {
    /// The table of the last screens of each path.
    package var table: PathTable
    /// What the table covers: `group ID` or `all reports`.
    public var title: String
    /// Warnings and notes for people: manifest choices, reports left out and why.
    public var notes: [String]
}

extension TriageService {
    /// Counts the last `screens` screens of each stored report's path (of the group whose ID starts with `group`, when
    /// given): the path stored with the report when it was replayed with the same manifest and `screens` is at most
    /// `ScreenPath/storedCount`, else the trail replayed now.
    /// - Throws: `StoreError` (`not-found` or `ambiguous` for the group prefix).
    public func paths(group: String?, screens: Int, manifests: [Manifest]) throws -> PathsResult {
        let selected = try group.map { prefix throws(StoreError) in try store.group(matchingPrefix: prefix, project: project) }
        var counter = PathCounter(last: screens)
        var manifestsByApp = ManifestsByApp(manifests)
        var skipped: [String: Int] = [:]
        var withTrail = 0
        // The stored screen paths, counted as reports arrive: each is used when its manifest is the one given; the
        // reports of the others are replayed.
        var toReplay: Set<ReportStore.PathKey> = []
        try store.forEachPathCount(signature: selected?.signature, project: project) { count in
            withTrail += count.reports
            guard let app = count.key.app, let manifest = manifestsByApp.manifest(for: app) else {
                toReplay.insert(count.key)
                return
            }
            let counted = count.key.withLastScreens(screens, replayedWith: manifest) { names in
                counter.add(utf8Names: names, inferred: count.key.inferred, count: count.reports)
            }
            if !counted {
                if let last = count.key.screenPath?.lastScreens(screens, replayedWith: manifest) {
                    counter.add(last, inferred: count.key.inferred, count: count.reports)
                } else {
                    toReplay.insert(count.key)
                }
            }
        }
        var replayed: [(id: String, inferred: Bool)] = []
        try store.forEachPathRow(ReportFilter(signature: selected?.signature, project: project), keys: toReplay) { row in
            replayed.append((row.id, row.key.inferred))
        }
        for (id, inferred) in replayed {
            guard let json = try store.trailJSON(id: id), let trail = try? Trail(json: Array(json.utf8)) else {
                skipped["report \(id): its stored trail cannot be read", default: 0] += 1
                continue
            }
            let app = trail.app.bundleID
            guard let manifest = manifestsByApp.manifest(for: app) else {
                skipped["no --manifest for the app \(app)", default: 0] += 1
                continue
            }
            counter.add(ScreenPath.names(of: trail, manifest: manifest), inferred: inferred)
        }
        var notes = manifestsByApp.warnings
        for (why, count) in skipped.sorted(by: { $0.key < $1.key }) {
            notes.append("Note: \(counted(count, "report")) with a trail left out of the table: \(why)")
        }
        return PathsResult(
            table: counter.table(reportsWithTrail: withTrail),
            title: selected.map { "group \($0.id)" } ?? "all reports", notes: notes)
    }
}
