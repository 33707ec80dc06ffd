import CrashtrailCore
import CrashtrailReports
import Foundation

/// One row of the `report` table: a stored crash, its trail and its compressed raw payload.
package struct ReportRecord: Hashable, Sendable {
    package var id: String
    package var format: ReportFormat
    /// Lower-case hex SHA-256 of the payload's bytes: the same bytes again are a duplicate.
    package var sha256: String
    package var bundleID: String?
    package var appVersion: String?
    package var appBuild: String?
    package var osName: String?
    package var osVersion: String?
    package var device: String?
    /// RFC 3339 UTC.
    package var time: String?
    package var exceptionType: String?
    package var exceptionCode: String?
    package var exceptionSignal: String?
    package var exceptionReason: String?
    /// The crashed thread's frames as canonical JSON: `[{"image","inApp","offset","symbol"}]`.
    package var frames: String
    /// The uncaught language exception's own backtrace, when the payload gives one, as canonical JSON like `frames`;
    /// `[]` when it gives none.
    package var exceptionFrames: String
    /// What the normalized report knows beyond what listings read, as canonical JSON: the crashed thread's index, the
    /// Mach exception, the language exception and the binary images (`ReportRecord.encodeDetails(crashedThread:exception:binaryImages:)`); `{}` when
    /// the payload gave none of them, or the row was stored before they were kept.
    package var details: String
    package var signature: String
    package var trailSource: TrailInfo.Source
    package var trailSteps: Int?
    package var trailError: String?
    /// The trail's canonical JSON (SPEC section 5), when it has one.
    package var trail: String?
    /// The dictionary ID (16 hex digits) of the manifest the trail was encoded with, when it rode encoded and named
    /// one: replay compares it with the manifest it is given.
    package var trailDictionary: String?
    /// The last screens of the trail as the store's manifest for the app replays them, as canonical JSON (an array of
    /// names), when the report has a trail and a manifest was known when it was attached.
    package var screenPath: String?
    /// The fingerprint of the manifest that replayed `screenPath` (`Manifest.fingerprint`).
    package var pathManifest: String?
    package var pid: Int64?
    /// Process launch, milliseconds since 1970 UTC, for joining a trail that arrives later.
    package var launchTime: Int64?
    /// The input the payload came from (a path, or `-:LINE` for standard input).
    package var source: String
    /// The raw payload, compressed: a zstd frame, or a zlib stream in stores written before (docs/INGEST.md).
    package var payload: Data
    /// The raw payload's size in bytes.
    package var payloadSize: Int
    /// The images the report's frames name with a UUID, kept in `reportImage` beside the row (not a column); empty for
    /// a row read back.
    package var images: [ReportImage] = []
    /// The recorder's session ID the payload carries (`crashtrail.session`, SPEC section 18), kept in `reportSession`
    /// beside the row (not a column) so a trail joins the crash of its own session; nil for a row read back.
    package var sessionID: String?
    /// The project the report was sent to (SPEC section 19): duplicates and joins are decided within it.
    ///
    /// The store's first project when no other is named: the `default` project `serve` makes, or the first `crashtrail project add`.
    package var project = ProjectID.first

    /// The stored screen path, read from its columns.
    package var storedScreenPath: StoredScreenPath? { StoredScreenPath(screensJSON: screenPath, manifest: pathManifest) }

    /// A record from its fields; the trail fields default to none.
    package init(
        id: String, format: ReportFormat, sha256: String, bundleID: String? = nil, appVersion: String? = nil,
        appBuild: String? = nil, osName: String? = nil, osVersion: String? = nil, device: String? = nil, time: String? = nil,
        exceptionType: String? = nil, exceptionCode: String? = nil, exceptionSignal: String? = nil,
        exceptionReason: String? = nil, frames: String, exceptionFrames: String = "[]", details: String = "{}", signature: String,
        trailSource: TrailInfo.Source = .missing,
        trailSteps: Int? = nil, trailError: String? = nil, trail: String? = nil, trailDictionary: String? = nil,
        screenPath: StoredScreenPath? = nil,
        pid: Int64? = nil, launchTime: Int64? = nil, source: String, payload: Data, payloadSize: Int, images: [ReportImage] = [],
        sessionID: String? = nil
    ) {
        self.id = id
        self.format = format
        self.sha256 = sha256
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.osName = osName
        self.osVersion = osVersion
        self.device = device
        self.time = time
        self.exceptionType = exceptionType
        self.exceptionCode = exceptionCode
        self.exceptionSignal = exceptionSignal
        self.exceptionReason = exceptionReason
        self.frames = frames
        self.exceptionFrames = exceptionFrames
        self.details = details
        self.signature = signature
        self.trailSource = trailSource
        self.trailSteps = trailSteps
        self.trailError = trailError
        self.trail = trail
        self.trailDictionary = trailDictionary
        self.screenPath = screenPath?.screensJSON
        self.pathManifest = screenPath?.manifest
        self.pid = pid
        self.launchTime = launchTime
        self.source = source
        self.payload = payload
        self.payloadSize = payloadSize
        self.images = images
        self.sessionID = sessionID
    }
}
