public import CrashtrailCore

/// What a journal held when it was recovered: the trail of its durable steps, the manifest it was recorded
/// with, and what, if anything, was dropped as damaged.
public struct RecoveredJournal: Sendable {
    /// Where the file stopped being readable, and why.
    public struct Damage: Sendable, Hashable, CustomStringConvertible {
        /// The byte offset of the first record not recovered.
        public var offset: Int
        /// The bytes from `offset` to the end of the file, none of which was recovered.
        public var droppedBytes: Int
        /// What was wrong there, in words.
        public var reason: String

        public var description: String { "dropped \(droppedBytes) bytes from offset \(offset): \(reason)" }
    }

    /// The trail: the recovered steps within the journal's limits, `base` and `dropped` accounting for the steps
    /// let go before them, `final` the state after the last recovered step, and the session that recorded it.
    public var trail: Trail
    /// The manifest the journal was recorded with (the journal keeps it).
    public var manifest: Manifest
    /// The limits the recorder kept the trail within.
    public var limits: TrailRecorder.Limits
    /// The records read intact.
    public var records: Int
    /// The size of the header, in bytes.
    public var headerSize: Int
    /// The size of the file, in bytes.
    public var fileSize: Int
    /// What was dropped, or nil when every byte of the file was recovered.
    public var damage: Damage?
    /// Whether the app ended the session itself (`TrailRecorder.endSession()`): false after a crash or a kill.
    public var endedByApp: Bool

    /// How the session ended (SPEC section 20): `crashed` when the crash reporter says the last run crashed (Sentry's
    /// `SentrySDK.crashedLastRun`, Crashlytics' `didCrashDuringPreviousExecution()`), else `exited` when the app ended
    /// it, else `killed` (the journal has no end and no crash was reported: the OS or the user ended the process).
    /// - Parameter crashReported: what the crash reporter says of the previous run.
    /// - Returns: the ending the trail of a session that did not crash says in `session.ended`.
    public func ending(crashReported: Bool) -> Trail.Session.Ending {
        if crashReported { return .crashed }
        return endedByApp ? .exited : .killed
    }

    /// The trail to send for a session that did not crash, when it falls in the sampled share (SPEC section 20).
    ///
    /// Send it the way the trails of crashed sessions go (`POST /api/ID/trails`): the collector adds it to the counts
    /// `crashtrail paths --rate` reads and keeps no report for it. Its steps are redacted as they were recorded.
    ///
    /// ```swift
    /// let previous = try TrailJournal.recover(at: journalURL)
    /// if let trail = previous.sessionTrail(crashReported: SentrySDK.crashedLastRun, sampleRate: 0.1) {
    ///     upload(try codec.encodeBinary(trail))
    /// }
    /// ```
    /// - Parameters:
    ///   - crashReported: what the crash reporter says of the previous run; a crashed session's trail joins its crash.
    ///   - sampleRate: the share of sessions that did not crash to send, 0 (none) … 1 (all); the same session is
    ///     always in or out of the share (``SessionSampling``).
    /// - Returns: the trail with `session.ended` and `session.sampleRate` set, or nil when the session crashed, the
    ///   rate is 0, or the session is not in the share.
    public func sessionTrail(crashReported: Bool, sampleRate: Double) -> Trail? {
        let ended = ending(crashReported: crashReported)
        guard ended != .crashed, let rate = Trail.SampleRate(min(sampleRate, 1)),
            SessionSampling.includes(sessionID: trail.session.id, rate: rate)
        else { return nil }
        var sent = trail
        sent.session.ended = ended
        sent.session.sampleRate = rate
        return sent
    }
}

/// Which sessions fall in a sampled share: decided from the session ID alone, so a session is in or out however often
/// it is asked, and the share is exact over many sessions.
public enum SessionSampling {
    /// Whether the session `sessionID` is among the share `rate` of sessions.
    public static func includes(sessionID: String, rate: Trail.SampleRate) -> Bool {
        // The top 30 bits of the session ID's stable hash give a point in [0, 1).
        let hash = StableHash.of(sessionID)
        let point = hash >> 34
        return point * UInt64(Trail.SampleRate.one) < UInt64(rate.billionths) << 30
    }
}
