public import CrashtrailCore

/// Release-health counts as `serve` keeps them (SPEC section 20): per release, environment and hour, not a row per
/// session.
///
/// Built from the `session` and `sessions` items of Sentry envelopes by ``add(update:)`` and ``add(aggregate:)``, then
/// added to the store in one transaction.
public struct SessionTally: Sendable, Hashable {
    /// The key a count is kept under.
    public struct Bucket: Sendable, Hashable, Comparable {
        /// `BUNDLE@VERSION+BUILD`, as Sentry's SDKs name a release.
        public var release: String
        /// The environment (`production`), empty when the SDK sent none.
        public var environment: String
        /// Hours since 1970-01-01T00:00:00Z of the session's start.
        public var hour: Int64

        public init(release: String, environment: String, hour: Int64) {
            self.release = release
            self.environment = environment
            self.hour = hour
        }

        public static func < (lhs: Bucket, rhs: Bucket) -> Bool {
            (lhs.release, lhs.environment, lhs.hour) < (rhs.release, rhs.environment, rhs.hour)
        }
    }

    /// The counts of one bucket.
    public struct Counts: Sendable, Hashable {
        /// Sessions started (counted by their first update, `init: true`).
        public var started: Int64 = 0
        /// Sessions that ended in a crash.
        public var crashed: Int64 = 0
        /// Sessions that ended abnormally: the OS killed the app (a watchdog, memory).
        public var abnormal: Int64 = 0
        /// Sessions that ended with an error recorded, without crashing or ending abnormally.
        public var errored: Int64 = 0
        /// The distinct users (`did`) of the sessions.
        public var users = UserSketch()
        /// The distinct users whose session crashed.
        public var crashedUsers = UserSketch()

        public init() {}

        /// Adds `other`'s counts and users; a count that would pass `Int64.max` stays there (no client can make the
        /// collector trap).
        public mutating func add(_ other: Counts) {
            started = Self.saturating(started, other.started)
            crashed = Self.saturating(crashed, other.crashed)
            abnormal = Self.saturating(abnormal, other.abnormal)
            errored = Self.saturating(errored, other.errored)
            users.formUnion(other.users)
            crashedUsers.formUnion(other.crashedUsers)
        }

        private static func saturating(_ lhs: Int64, _ rhs: Int64) -> Int64 {
            let (sum, overflow) = lhs.addingReportingOverflow(rhs)
            return overflow ? (rhs < 0 ? Int64.min : Int64.max) : sum
        }
    }

    /// Why an item was not counted.
    public struct ItemError: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// How a session ended, as its update says.
    public enum Ending: Sendable, Hashable {
        case crashed, abnormal, errored
    }

    /// What a tally counted of one session (by its `sid`): its start, its ending, the bucket they count in.
    ///
    /// The store remembers it, so that an update it counted before (an SDK's retry after a lost answer) is counted
    /// once (``discount(seen:)``).
    public struct SessionUpdate: Sendable, Hashable {
        /// The bucket of the session.
        public var bucket: Bucket
        /// Its start was counted (an update with `init: true`).
        public var started: Bool
        /// Its ending was counted.
        public var ending: Ending?

        public init(bucket: Bucket, started: Bool, ending: Ending?) {
            self.bucket = bucket
            self.started = started
            self.ending = ending
        }
    }

    /// What the store remembers it counted of a session, from earlier tallies.
    public struct SeenSession: Sendable, Hashable {
        /// Its start was counted.
        public var started: Bool
        /// Its ending was counted.
        public var ended: Bool

        public init(started: Bool, ended: Bool) {
            self.started = started
            self.ended = ended
        }
    }

    /// The counts, by bucket.
    public private(set) var buckets: [Bucket: Counts] = [:]
    /// What this tally counted of each session that has a `sid`, by that ID: within the tally, a session's start and
    /// ending count once however many updates repeat them.
    public private(set) var sessions: [String: SessionUpdate] = [:]
    /// The session starts counted, in milliseconds since 1970: nil counts any.
    ///
    /// `serve` counts, as Sentry's Relay does,
    /// sessions started from 5 days ago to an hour ahead (``window(at:)``).
    public var accepted: ClosedRange<Int64>?

    /// The most buckets one tally makes from a `sessions` item's entries: an envelope's worth.
    public static let maximumEntries = 1000

    public init(accepted: ClosedRange<Int64>? = nil) {
        self.accepted = accepted
    }

    /// The starts Sentry's Relay accepts at `now` (milliseconds since 1970): from 5 days before to an hour after.
    public static func window(at now: Int64) -> ClosedRange<Int64> {
        now.subtractingReportingOverflow(5 * 86_400_000).partialValue...now.addingReportingOverflow(3_600_000).partialValue
    }

    /// Whether nothing was counted.
    public var isEmpty: Bool { buckets.isEmpty }

    /// Adds every bucket of `other`; a session both counted is counted once (its start, its ending).
    public mutating func add(_ other: SessionTally) {
        for (bucket, counts) in other.buckets { buckets[bucket, default: Counts()].add(counts) }
        var repeated: [String: SeenSession] = [:]
        for (sid, update) in other.sessions {
            guard let mine = sessions[sid] else {
                sessions[sid] = update
                continue
            }
            // Both counted it: take back what `other` counted a second time, and keep what either counted.
            repeated[sid] = SeenSession(started: mine.started, ended: mine.ending != nil)
            sessions[sid] = SessionUpdate(
                bucket: mine.bucket, started: mine.started || update.started, ending: mine.ending ?? update.ending)
            take(back: update, seen: repeated[sid] ?? SeenSession(started: false, ended: false))
        }
    }

    /// Takes back what this tally counted of sessions an earlier one counted already, as the store remembers them (SPEC
    /// section 20: an update of a session seen before is counted once).
    /// - Parameter seen: what earlier tallies counted, by session ID.
    public mutating func discount(seen: [String: SeenSession]) {
        for (sid, update) in sessions {
            guard let before = seen[sid] else { continue }
            take(back: update, seen: before)
        }
    }

    /// Takes back `update`'s start and ending where `seen` says they were counted already.
    ///
    /// The users stay: a sketch counts a device once however often it is added.
    private mutating func take(back update: SessionUpdate, seen: SeenSession) {
        var counts = buckets[update.bucket] ?? Counts()
        if update.started && seen.started { counts.started -= 1 }
        if let ending = update.ending, seen.ended {
            switch ending {
            case .crashed: counts.crashed -= 1
            case .abnormal: counts.abnormal -= 1
            case .errored: counts.errored -= 1
            }
        }
        buckets[update.bucket] = counts
    }

    /// Counts one update of a session (a `session` item), as Sentry's ingestion counts it.
    ///
    /// The session is started by its update with `init: true`, and its ending (`crashed`, `abnormal`, or `exited`/`errored` with `errors` above 0)
    /// by the update that carries that status, which an SDK sends once. So a session that sends many updates counts
    /// once, whatever their number.
    /// - Parameter update: the item's JSON object.
    /// - Throws: ``ItemError`` when `attrs.release` or `started` is missing, or `status` is not one Sentry defines.
    public mutating func add(update: JSONValue) throws(ItemError) {
        guard case .object = update else { throw ItemError("a session item is \(update.kindName), not an object") }
        let bucket = try makeBucket(update, attrs: update["attrs"])
        let status = update["status"]?.stringValue ?? "ok"
        guard ["ok", "exited", "crashed", "abnormal", "errored", "unhandled"].contains(status) else {
            throw ItemError("a session's status is \"\(status)\"; Sentry's are ok, exited, crashed, abnormal and errored")
        }
        let errors = update["errors"]?.intValue ?? 0
        let starts = update["init"] == .bool(true)
        var ending: Ending?
        switch status {
        case "crashed": ending = .crashed
        case "abnormal": ending = .abnormal
        case "errored", "unhandled": ending = .errored
        case "exited": if errors > 0 { ending = .errored }
        default: break
        }
        // A session with an ID counts its start and its ending once in a tally, however many updates repeat them.
        var counted = SessionUpdate(bucket: bucket, started: starts, ending: ending)
        if let sid = update["sid"]?.stringValue, !sid.isEmpty {
            let before = sessions[sid]
            counted.started = starts && before?.started != true
            counted.ending = before?.ending == nil ? ending : nil
            sessions[sid] = SessionUpdate(
                bucket: before?.bucket ?? bucket, started: starts || before?.started == true, ending: before?.ending ?? ending)
        }
        var counts = Counts()
        if counted.started { counts.started = 1 }
        switch counted.ending {
        case .crashed: counts.crashed = 1
        case .abnormal: counts.abnormal = 1
        case .errored: counts.errored = 1
        case nil: break
        }
        if let did = Self.deviceID(update["did"]) {
            counts.users.insert(did)
            if ending == .crashed { counts.crashedUsers.insert(did) }
        }
        buckets[bucket, default: Counts()].add(counts)
    }

    /// Counts a `sessions` item: Sentry's aggregates of finished sessions, each entry a minute with its counts by how
    /// the sessions ended (`exited`, `errored`, `abnormal`, `crashed`), under one `attrs`.
    /// - Throws: ``ItemError`` when `attrs.release`, `aggregates` or an entry's `started` is missing, or a count is
    ///   negative.
    public mutating func add(aggregate: JSONValue) throws(ItemError) {
        guard let entries = aggregate["aggregates"]?.arrayValue else {
            throw ItemError("a sessions item has no \"aggregates\" array")
        }
        guard entries.count <= Self.maximumEntries else {
            throw ItemError("a sessions item has \(entries.count) entries, more than the \(Self.maximumEntries) counted in one item")
        }
        for (index, entry) in entries.enumerated() {
            guard case .object = entry else { throw ItemError("aggregates[\(index)] is \(entry.kindName), not an object") }
            let bucket = try makeBucket(entry, attrs: aggregate["attrs"])
            func count(_ key: String) throws(ItemError) -> Int64 {
                let value = entry[key]?.intValue ?? 0
                guard value >= 0, value <= 1 << 40 else { throw ItemError("aggregates[\(index)].\(key) is \(value), out of range") }
                return value
            }
            var counts = Counts()
            counts.crashed = try count("crashed")
            counts.abnormal = try count("abnormal")
            counts.errored = try count("errored") + count("unhandled")
            counts.started = try count("exited") + counts.errored + counts.crashed + counts.abnormal
            if let did = Self.deviceID(entry["did"]), counts.started > 0 {
                counts.users.insert(did)
                if counts.crashed > 0 { counts.crashedUsers.insert(did) }
            }
            buckets[bucket, default: Counts()].add(counts)
        }
    }

    /// The bucket of an update or an aggregate entry: `attrs.release`, `attrs.environment`, the hour of `started`.
    private func makeBucket(_ object: JSONValue, attrs: JSONValue?) throws(ItemError) -> Bucket {
        guard let release = attrs?["release"]?.stringValue, !release.isEmpty else {
            throw ItemError("a session has no attrs.release; Sentry drops such sessions too")
        }
        guard let started = object["started"]?.stringValue else { throw ItemError("a session has no \"started\" time") }
        guard let milliseconds = Timestamp.milliseconds(parsing: started) else {
            throw ItemError("a session's started \"\(started)\" is not an RFC 3339 time")
        }
        if let accepted, !accepted.contains(milliseconds) {
            throw ItemError("a session started at \(started), more than 5 days ago or ahead of now; Sentry drops such sessions too")
        }
        let hour = milliseconds >= 0 ? milliseconds / 3_600_000 : (milliseconds - 3_599_999) / 3_600_000
        return Bucket(release: release, environment: attrs?["environment"]?.stringValue ?? "", hour: hour)
    }

    /// A device ID as Sentry reads it: a non-empty string that is not the nil UUID.
    private static func deviceID(_ value: JSONValue?) -> String? {
        guard let did = value?.stringValue, !did.isEmpty, did != "00000000-0000-0000-0000-000000000000" else { return nil }
        return did
    }
}
