import CrashtrailCore
import CrashtrailEncoding
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailRecording

/// How a session ended, as the next launch reads it from the journal (SPEC section 20): the app's end record, else a
/// kill, unless the crash reporter says it crashed; and the sampled trail of a session that did not crash.
@MainActor
@Suite("Session endings")
struct SessionEndingTests {
    static let steps = [
        Step(t: 100, .push(Destination("item", ["id": "L-1"]))), Step(t: 200, .pop), Step(t: 300, .select(tab: 1)),
    ]

    @Test("A session the app ended reads as exited; one without the end as killed; a reported crash as crashed")
    func endings() throws {
        // Given two journals of the same steps, one ended by the app
        let folder = try TemporaryFolder("session-endings")
        defer { folder.remove() }
        let ended = try JournalTests.journal(of: Self.steps, in: folder)
        try ended.recorder.endSession()
        let endedJournal = try TrailJournal.recover(at: ended.url)
        let killedURL = folder.url.appendingPathComponent("killed.ctj")
        try Data(ended.bytes).write(to: killedURL)

        // When
        let killedJournal = try TrailJournal.recover(at: killedURL)

        // Then
        #expect(endedJournal.endedByApp)
        #expect(endedJournal.damage == nil)
        #expect(endedJournal.trail.steps == killedJournal.trail.steps)
        #expect(endedJournal.ending(crashReported: false) == .exited)
        #expect(killedJournal.ending(crashReported: false) == .killed)
        #expect(killedJournal.ending(crashReported: true) == .crashed)
        #expect(endedJournal.ending(crashReported: true) == .crashed)
    }

    @Test("An end record torn by the kill reads as killed, every step kept and the damage named")
    func tornEnd() throws {
        let folder = try TemporaryFolder("session-endings")
        defer { folder.remove() }
        let journal = try JournalTests.journal(of: Self.steps, in: folder)
        try journal.recorder.endSession()
        let whole = Array(try Data(contentsOf: journal.url))
        for cut in journal.bytes.count..<whole.count {
            let recovered = try TrailJournal.recover(Array(whole[..<cut]), path: "torn.ctj")
            #expect(!recovered.endedByApp, "cut at \(cut)")
            #expect(recovered.trail.steps.count == Self.steps.count)
            #expect(recovered.damage != nil || cut == journal.bytes.count)
        }
    }

    @Test("After the end nothing more is written: a step recorded then stays in memory only")
    func nothingAfterTheEnd() throws {
        let folder = try TemporaryFolder("session-endings")
        defer { folder.remove() }
        let journal = try JournalTests.journal(of: Self.steps, in: folder)
        try journal.recorder.endSession()
        try journal.recorder.record(Step(t: 400, .select(tab: 0)))
        let recovered = try TrailJournal.recover(at: journal.url)
        #expect(recovered.endedByApp)
        #expect(recovered.trail.steps.count == Self.steps.count)
    }

    @Test("The sampled trail says how the session ended and the rate; a crash, rate 0 or a session out of the share gives none")
    func sessionTrail() throws {
        let folder = try TemporaryFolder("session-endings")
        defer { folder.remove() }
        let journal = try JournalTests.journal(of: Self.steps, in: folder)
        let recovered = try TrailJournal.recover(at: journal.url)

        let all = try #require(recovered.sessionTrail(crashReported: false, sampleRate: 1))
        #expect(all.session.ended == .killed)
        #expect(all.session.sampleRate == Trail.SampleRate(billionths: Trail.SampleRate.one))
        #expect(all.steps == recovered.trail.steps)
        #expect(recovered.sessionTrail(crashReported: true, sampleRate: 1) == nil)
        #expect(recovered.sessionTrail(crashReported: false, sampleRate: 0) == nil)
        // The trail survives every form: its canonical JSON, the binary form and the ct1: text.
        let codec = TrailCodec(manifests: [recovered.manifest])
        let binary = try codec.encodeBinary(all)
        #expect(try codec.decode(binary) == all)
        #expect(try Trail(json: all.canonicalJSON) == all)
    }

    @Test("The sampled share is the rate over 20,000 sessions, and a session is always in or always out")
    func sampledShare() throws {
        let rate = try #require(Trail.SampleRate(0.1))
        let ids = (0..<20_000).map { String(format: "%08X-0000-4000-8000-%012X", $0, $0 * 7919) }
        let included = ids.filter { SessionSampling.includes(sessionID: $0, rate: rate) }
        let share = Double(included.count) / Double(ids.count)
        // Binomial standard deviation at n = 20,000, p = 0.1: 0.0021; four of them.
        #expect(abs(share - 0.1) < 0.0085, "\(share)")
        #expect(included.allSatisfy { SessionSampling.includes(sessionID: $0, rate: rate) })
        let everyone = try #require(Trail.SampleRate(1))
        #expect(ids.allSatisfy { SessionSampling.includes(sessionID: $0, rate: everyone) })
    }
}
