import CrashtrailCore
import Synchronization
import Testing

/// The one place the time is read: a fixed source reads the same, a stepped one measures durations and sessions.
@Suite("Time source")
struct TimeSourceTests {
    @Test("A fixed source reads its time, as milliseconds and RFC 3339, and every duration is zero")
    func fixed() {
        let time = TimeSource.fixed(milliseconds: 1_700_000_000_123)
        #expect(time.now() == 1_700_000_000_123)
        #expect(time.rfc3339() == "2023-11-14T22:13:20.123Z")
        let start = time.uptimeNanoseconds()
        #expect(time.seconds(since: start) == 0)
        #expect(time.sessionClock()() == 0)
    }

    @Test("Durations and a session's clock follow the monotonic reading, never backwards")
    func stepped() {
        let uptime = Mutex<UInt64>(5_000_000_000)
        let time = TimeSource(milliseconds: { 0 }, uptimeNanoseconds: { uptime.withLock { $0 } })
        let start = time.uptimeNanoseconds()
        let session = time.sessionClock()
        uptime.withLock { $0 += 1_500_000_000 }
        #expect(time.seconds(since: start) == 1.5)
        #expect(session() == 1_500)
        // A reading before the start (a source that went back) is no time at all, not a negative one.
        uptime.withLock { $0 = 1 }
        #expect(time.seconds(since: start) == 0)
        #expect(session() == 0)
    }

    @Test("The system source reads a time of day after 2020 and a monotonic clock that does not go back")
    func system() {
        let time = TimeSource.system
        #expect(time.now() > 1_577_836_800_000)
        let first = time.uptimeNanoseconds()
        #expect(time.uptimeNanoseconds() >= first)
    }
}
