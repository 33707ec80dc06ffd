import Foundation

/// Where crashtrail reads the time: the one place the wall clock and the monotonic clock are read.
///
/// Every type that needs the time takes a `TimeSource` (``system`` by default) rather than reading a clock, so a test
/// fixes the time with ``fixed(milliseconds:)`` or steps it with ``init(milliseconds:uptimeNanoseconds:)``, and a
/// reader of the code finds every use of the time by this one name.
///
/// ```swift
/// let time = TimeSource.fixed(milliseconds: 1_700_000_000_000)
/// time.now()          // 1_700_000_000_000
/// time.rfc3339()      // "2023-11-14T22:13:20Z"
/// ```
public struct TimeSource: Sendable {
    private let wall: @Sendable () -> Int64
    private let uptime: @Sendable () -> UInt64

    /// A time source that reads `milliseconds` for the time of day and `uptimeNanoseconds` for durations.
    /// - Parameters:
    ///   - milliseconds: milliseconds since 1970 UTC, now.
    ///   - uptimeNanoseconds: a monotonic reading in nanoseconds; only differences between two readings mean anything.
    public init(milliseconds: @escaping @Sendable () -> Int64, uptimeNanoseconds: @escaping @Sendable () -> UInt64) {
        wall = milliseconds
        uptime = uptimeNanoseconds
    }

    /// The system's clocks: the wall clock for the time of day, and a monotonic clock, which no change of the
    /// machine's time moves, for durations.
    public static let system = TimeSource(
        milliseconds: { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) },
        uptimeNanoseconds: { DispatchTime.now().uptimeNanoseconds }
    )

    /// A time source stopped at `milliseconds` since 1970 UTC, whose durations are all zero: for tests.
    public static func fixed(milliseconds: Int64) -> TimeSource {
        TimeSource(milliseconds: { milliseconds }, uptimeNanoseconds: { 0 })
    }

    /// Milliseconds since 1970 UTC, now.
    public func now() -> Int64 { wall() }

    /// Now, as RFC 3339 UTC (with milliseconds unless they are zero).
    public func rfc3339() -> String { Timestamp.rfc3339(milliseconds: wall()) }

    /// A monotonic reading in nanoseconds, to measure a duration from with ``seconds(since:)``.
    public func uptimeNanoseconds() -> UInt64 { uptime() }

    /// Seconds since the monotonic reading `start`.
    public func seconds(since start: UInt64) -> Double {
        let current = uptime()
        return current > start ? Double(current - start) / 1e9 : 0
    }

    /// A clock that counts milliseconds from the moment it is made, on the monotonic clock: a session's clock.
    public func sessionClock() -> @Sendable () -> Int64 {
        let start = uptime()
        return { [uptime] in
            let current = uptime()
            return current > start ? Int64((current - start) / 1_000_000) : 0
        }
    }
}
