import CrashtrailCore
import Foundation
import GRDB

/// One row of the `report` table: a stored crash, its trail and its compressed raw payload.
public struct ReportRecord: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "report"

    public var id: String
    public var format: String
    /// Lower-case hex SHA-256 of the payload's bytes: the same bytes again are a duplicate.
    public var sha256: String
    public var bundleID: String?
    public var appVersion: String?
    public var appBuild: String?
    public var osName: String?
    public var osVersion: String?
    public var device: String?
    /// RFC 3339 UTC.
    public var time: String?
    public var exceptionType: String?
    public var exceptionCode: String?
    public var exceptionSignal: String?
    public var exceptionReason: String?
    /// The crashed thread's frames as canonical JSON: `[{"image","inApp","offset","symbol"}]`.
    public var frames: String
    public var signature: String
    /// `embedded`, `joined`, `missing` or `undecodable`.
    public var trailSource: String
    public var trailSteps: Int?
    public var trailError: String?
    /// The trail's canonical JSON (SPEC section 5), when it has one.
    public var trail: String?
    public var pid: Int64?
    /// Process launch, milliseconds since 1970 UTC, for joining a trail that arrives later.
    public var launchTime: Int64?
    /// The input the payload came from (a path, or `-:LINE` for standard input).
    public var source: String
    /// The raw payload, compressed: a zstd frame, or a zlib stream in stores written before (docs/INGEST.md).
    public var payload: Data
    /// The raw payload's size in bytes.
    public var payloadSize: Int

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let sha256 = Column(CodingKeys.sha256)
        public static let bundleID = Column(CodingKeys.bundleID)
        public static let time = Column(CodingKeys.time)
        public static let signature = Column(CodingKeys.signature)
        public static let trailSource = Column(CodingKeys.trailSource)
        public static let trailSteps = Column(CodingKeys.trailSteps)
        public static let trailError = Column(CodingKeys.trailError)
        public static let trail = Column(CodingKeys.trail)
        public static let pid = Column(CodingKeys.pid)
        public static let launchTime = Column(CodingKeys.launchTime)
        public static let format = Column(CodingKeys.format)
    }
}

extension ReportRecord {
    /// The `report` table's columns, in the order of ``storeValues``.
    static let columns = [
        "id", "format", "sha256", "bundleID", "appVersion", "appBuild", "osName", "osVersion", "device", "time", "exceptionType",
        "exceptionCode", "exceptionSignal", "exceptionReason", "frames", "signature", "trailSource", "trailSteps", "trailError",
        "trail", "pid", "launchTime", "source", "payload", "payloadSize",
    ]

    /// Inserts a row unless its ID is taken (then it changes nothing).
    static let insertSQL =
        "INSERT INTO report (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", "))) ON CONFLICT (id) DO NOTHING"

    /// The row's values, in the order of ``columns``.
    var storeValues: [StoreValue] {
        [
            .text(id), .text(format), .text(sha256), StoreValue(bundleID), StoreValue(appVersion), StoreValue(appBuild),
            StoreValue(osName), StoreValue(osVersion), StoreValue(device), StoreValue(time), StoreValue(exceptionType),
            StoreValue(exceptionCode), StoreValue(exceptionSignal), StoreValue(exceptionReason), .text(frames), .text(signature),
            .text(trailSource), StoreValue(trailSteps), StoreValue(trailError), StoreValue(trail), StoreValue(pid),
            StoreValue(launchTime), .text(source), .blob(payload), .integer(Int64(payloadSize)),
        ]
    }

    /// The record a row of `report` or `reportWithTrail` holds.
    /// - Throws: `StoreError` (`database`) when a column that is never empty is.
    public init(row: StoreRow) throws(StoreError) {
        self.init(
            id: try row.requiredString("id"), format: try row.requiredString("format"), sha256: try row.requiredString("sha256"),
            bundleID: row.string("bundleID"), appVersion: row.string("appVersion"), appBuild: row.string("appBuild"),
            osName: row.string("osName"), osVersion: row.string("osVersion"), device: row.string("device"), time: row.string("time"),
            exceptionType: row.string("exceptionType"), exceptionCode: row.string("exceptionCode"),
            exceptionSignal: row.string("exceptionSignal"), exceptionReason: row.string("exceptionReason"),
            frames: try row.requiredString("frames"), signature: try row.requiredString("signature"),
            trailSource: try row.requiredString("trailSource"), trailSteps: row.int("trailSteps"), trailError: row.string("trailError"),
            trail: row.string("trail"), pid: row.int64("pid"), launchTime: row.int64("launchTime"),
            source: try row.requiredString("source"), payload: row.data("payload") ?? Data(), payloadSize: row.int("payloadSize") ?? 0)
    }
}
