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
}
