import CrashtrailCore
import CrashtrailIntake
import CrashtrailReports
import CrashtrailStore
import Foundation

/// `crashtrail-health-bench [SESSIONS…]`: what release health costs the store (SPEC section 20), measured.
///
/// For each count (default 1,000,000 and 2,000,000), a new SQLite store receives that many sessions as Sentry's SDKs
/// send them (one `session` item each, through the JSON reader and the intake batches `serve` uses): 5 releases,
/// 2 environments, over 30 days in the order they happen, 200,000 users, 1 % crashed and 0.5 % abnormal; and, for the sessions that did
/// not crash, a 10 % sample of their trails walking a 25-screen app (2 to 30 moves). It prints the store's size, its
/// rows, the bytes per million sessions and the sessions counted per second. Seeded: every run counts the same.
@main
enum HealthBench {
    static func main() throws {
        let counts = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("crashtrail-health-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        print("| sessions | sampled trails | store size | sessionCount rows | pathVisit rows | bytes per million sessions | sessions/s |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for count in counts.isEmpty ? [1_000_000, 2_000_000] : counts {
            let path = folder.appendingPathComponent("health-\(count).sqlite").path
            let empty = try size(of: path, creating: true)
            let started = Date()
            let trails = try fill(path, sessions: count)
            let seconds = Date().timeIntervalSince(started)
            let store = try ReportStore.open(path: path)
            let rows = try store.read { db in
                (
                    try db.value("SELECT COUNT(*) FROM sessionCount")?.integer ?? 0,
                    try db.value("SELECT COUNT(*) FROM pathVisit")?.integer ?? 0
                )
            }
            let bytes = try size(of: path, creating: false) - empty
            print(
                "| \(count) | \(trails) | \(bytes / 1024) KiB | \(rows.0) | \(rows.1) | \(bytes * 1_000_000 / count / 1024) KiB | "
                    + "\(Int(Double(count) / seconds)) |")
        }
    }

    /// The bytes the store's database takes: its page count (committed pages, in the file or its log) times the page
    /// size.
    static func size(of path: String, creating: Bool) throws -> Int {
        let store = try ReportStore.open(path: path)
        return try store.read { db in
            let pages = try db.value("PRAGMA page_count")?.integer ?? 0
            let size = try db.value("PRAGMA page_size")?.integer ?? 0
            return Int(pages * size)
        }
    }

    /// Adds `sessions` sessions and the sampled trails of those that did not crash; returns the trails added.
    static func fill(_ path: String, sessions: Int) throws -> Int {
        let store = try ReportStore.open(path: path)
        var random = Random(seed: UInt64(sessions))
        let releases = (0..<5).map { "com.example.shop@4.\($0).0+\(500 + $0)" }
        let screens = (0..<25).map { "screen\($0)" }
        let start = Timestamp.milliseconds(parsing: "2026-10-29T00:00:00Z") ?? 0
        var trails = 0
        var works: [IntakeWork] = []
        var tally = SessionTally()
        for index in 0..<sessions {
            let release = releases[random.next(releases.count)]
            let roll = random.next(1000)
            let status = roll < 10 ? "crashed" : roll < 15 ? "abnormal" : "exited"
            // Sessions come as they happen: in time order, over 30 days.
            let started = Timestamp.rfc3339(milliseconds: start + Int64(index) * 30 * 86_400_000 / Int64(sessions))
            let item =
                #"{"sid":"s-\#(index)","did":"user-\#(random.next(200_000))","init":true,"started":"\#(started)","status":"\#(status)","attrs":{"release":"\#(release)","environment":"\#(roll % 2 == 0 ? "production" : "staging")"}}"#
            try tally.add(update: try JSONParser.parse(Array(item.utf8), ignoredNumberKeys: ["duration"]))
            if status != "crashed", random.next(10) == 0 {
                var path = [screens[0]]
                for _ in 0..<(2 + random.next(29)) {
                    let next = screens[random.next(screens.count)]
                    if next != path[path.count - 1] { path.append(next) }
                }
                works.append(.sessionTrail(SessionTrail(release: release, visits: PathVisits(screens: path), weight: 10, project: .first)))
                trails += 1
            }
            if index % 1000 == 999 || index == sessions - 1 {
                works.append(.sessions(tally, project: .first))
                tally = SessionTally()
                let batch = works
                try store.write { db in _ = try IntakeBatch.apply(batch, in: db) }
                works.removeAll(keepingCapacity: true)
            }
        }
        return trails
    }
}

/// SplitMix64: the same numbers on every machine.
struct Random {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
