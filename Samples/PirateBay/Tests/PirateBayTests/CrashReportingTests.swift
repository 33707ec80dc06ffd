import CrashtrailCore
import CrashtrailEncoding
import CrashtrailRecording
import Foundation
import PirateBay
import Testing

/// The sample's integration: a Navigator recorded to a journal with a sink, and a SwiftUI-style recorder that
/// reports the screens it shows.
@MainActor
@Suite("PirateBay crash reporting")
struct CrashReportingTests {
    final class Reporter: @unchecked Sendable {
        let lock = NSLock()
        var trail = ""
        func set(_ text: String) { lock.withLock { trail = text } }
        var value: String { lock.withLock { trail } }
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("piratebay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("A session that ends without warning is recovered at the next launch, search text redacted")
    func nextLaunchRecoversTheSession() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var now: Int64 = 0
        let reporter = Reporter()
        // Given a first launch that navigates, then is killed (nothing runs after the last step)
        let first = try PirateBayCrashReporting(
            folder: folder, version: "3.1.0", build: "412",
            session: Trail.Session(id: "4D1FE12F-9EEE-4537-8DF6-791B7586D554", started: "2026-11-02T14:45:05.000Z", pid: 31922),
            clock: { now }, setTrail: reporter.set)
        #expect(first.previousSession == nil)
        now = 1_000
        first.navigator.select(tab: 1)
        now = 2_000
        try first.navigator.push(PirateBayDestination.search(text: "rum for the captain"))
        now = 3_000
        try first.navigator.push(PirateBayDestination.item(id: "L-42"))
        now = 4_000
        try first.navigator.present(PirateBayDestination.compose(id: "P-7"))
        let atCrash = first.recorder.trail(stampingFinal: true)
        first.recorder.waitForSinks()
        // When the app launches again
        let second = try PirateBayCrashReporting(folder: folder, version: "3.1.0", build: "412", setTrail: { _ in })
        // Then the previous session's trail is there, whole, with the state it was in
        let previous = try #require(second.previousSession)
        #expect(previous.trail == atCrash)
        #expect(previous.trail.session.pid == 31922)
        #expect(previous.trail.final?.modals.last?.first == Destination("login"))
        // And the reporter was handed the same trail; nobody can read the search text from either
        let manifest = try PirateBay.manifest()
        #expect(try TrailCodec(manifests: [manifest]).decode(text: reporter.value) == atCrash)
        let journalBytes = try Data(contentsOf: PirateBayCrashReporting.journalURL(in: folder))
        #expect(journalBytes.range(of: Data("rum for the captain".utf8)) == nil)
        #expect(!atCrash.canonicalJSONString.contains("rum for the captain"))
        #expect(atCrash.canonicalJSONString.contains("redacted-"))
    }

    @Test("The SwiftUI build reports its screens; the trail passes through each of them")
    func screensObserved() throws {
        let manifest = try PirateBay.manifest()
        let recorder = TrailRecorder(
            manifest: manifest, app: Trail.AppInfo(bundleID: PirateBay.bundleID, version: "3.1.0", build: "412"),
            session: Trail.Session(id: "00000000-0000-4000-8000-0000000000AA", started: "2026-11-02T14:45:05.000Z", pid: 1),
            redactionKey: Array(repeating: 1, count: 32))
        let observer = PirateBayScreenObserver(recorder: recorder)
        var screens = PirateBayScreenObserver.Screens()
        // Each observation's steps, by how many steps were recorded once it was, and the state it showed
        var observed: [(Int, NavigationState)] = []
        func show(_ t: Int64) throws {
            try observer.show(screens, at: t)
            observed.append((recorder.recordedStepCount, try screens.state()))
        }
        screens.tab = 1
        screens.paths[1] = [.item(id: "L-42")]
        try show(1_000)
        screens.paths[1] = [.item(id: "L-42"), .profile(id: "P-7"), .seller(id: "P-7")]
        try show(2_000)
        screens.sheets = [[.login]]
        try show(3_000)
        screens.sheets = []
        screens.conditions = ["signedIn"]
        screens.tab = 2
        try show(5_000)
        screens.paths[1] = []
        try show(6_000)
        // Replaying the trail passes through every observed state, each by its time
        let trail = recorder.trail(stampingFinal: true)
        var engine = NavigationEngine(manifest: manifest, state: trail.base)
        #expect(trail.dropped == 0)
        var applied = 0
        for (count, state) in observed {
            for step in trail.steps[applied..<count] {
                #expect(engine.apply(step).isEmpty, "step \(step.op.name) at \(step.t) had an anomaly")
            }
            applied = count
            #expect(engine.state == state, "after \(count) steps")
        }
        #expect(engine.state == (try screens.state()))
        // A screen the manifest lacks is refused and records nothing
        let before = recorder.recordedStepCount
        var wrong = screens
        wrong.paths = [[], []]
        #expect(throws: ObservedStateError.self) { try observer.show(wrong, at: 7_000) }
        #expect(recorder.recordedStepCount == before)
    }

    @Test("onChange needs no try: show(_:) reads the clock, times each change's steps after the one before, keeps refusals")
    func screensObservedWithoutThrowing() throws {
        let manifest = try PirateBay.manifest()
        let recorder = TrailRecorder(
            manifest: manifest, app: Trail.AppInfo(bundleID: PirateBay.bundleID, version: "3.1.0", build: "412"),
            session: Trail.Session(id: "00000000-0000-4000-8000-0000000000AB", started: "2026-11-02T14:45:05.000Z", pid: 1))
        nonisolated(unsafe) var now: Int64 = 0
        let observer = PirateBayScreenObserver(recorder: recorder, clock: { now })
        var screens = PirateBayScreenObserver.Screens()
        var counts: [Int] = []
        for (t, change) in [(1_000, 0), (3_000, 1), (3_400, 2), (9_000, 3)] {
            now = Int64(t)
            switch change {
            case 0: screens.tab = 1
            case 1: screens.paths[1] = [.item(id: "L-42")]
            case 2: screens.paths[1] = [.item(id: "L-42"), .profile(id: "P-7")]
            default: screens.tab = 0
            }
            observer.show(screens)
            counts.append(recorder.recordedStepCount)
        }
        let times = recorder.trail().steps.map(\.t)
        // Each change's steps come after the observation before it and no later than its own
        #expect(times == [1, 1_001, 3_001, 3_401], "\(times)")
        #expect(counts == [1, 2, 3, 4])
        var wrong = screens
        wrong.paths = [[], []]
        observer.show(wrong)
        #expect(observer.refused.map(\.code) == [.invalidState])
        #expect(recorder.recordedStepCount == 4)
    }
}
