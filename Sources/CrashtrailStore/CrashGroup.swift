import CrashtrailCore

/// Reports that share a signature, as `crashtrail list` shows them.
public struct CrashGroup: Hashable, Sendable {
    public var signature: String
    public var count: Int
    /// RFC 3339 UTC of the oldest and newest report with a time; nil when none has one.
    public var firstSeen: String?
    public var lastSeen: String?
    /// The app versions seen, sorted.
    public var versions: [String]
    /// How many of its reports have a trail to replay: recorded, or inferred from breadcrumbs.
    public var withTrail: Int
    /// How many of those trails were inferred from breadcrumbs (SPEC section 15).
    public var inferred: Int

    public init(
        signature: String, count: Int, firstSeen: String?, lastSeen: String?, versions: [String], withTrail: Int, inferred: Int = 0
    ) {
        self.inferred = inferred
        self.signature = signature
        self.count = count
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.versions = versions
        self.withTrail = withTrail
    }

    /// The JSON form `crashtrail list --format json` prints (SPEC sections 8 and 13).
    public var jsonValue: JSONValue {
        .object([
            "id": .string(id), "signature": .string(signature), "count": .int(Int64(count)),
            "firstSeen": firstSeen.map(JSONValue.string) ?? .null, "lastSeen": lastSeen.map(JSONValue.string) ?? .null,
            "versions": .array(versions.map(JSONValue.string)), "withTrail": .int(Int64(withTrail)),
        ])
    }
}
