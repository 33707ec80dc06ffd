/// The `report` table's columns, in table order: the one list from which inserts, row decoding, listings and
/// reprocessing are derived.
///
/// Migrations name them in plain strings, as released migrations must.
package enum ReportColumn: String, CaseIterable, Sendable {
    case id, format, sha256, bundleID, appVersion, appBuild, osName, osVersion, device, time
    case exceptionType, exceptionCode, exceptionSignal, exceptionReason, frames, exceptionFrames, details, signature
    case trailSource, trailSteps, trailError, trail, trailDictionary, screenPath, pathManifest
    case pid, launchTime, source, payload, payloadSize, project

    /// The column's name in SQL.
    package var name: String { rawValue }

    /// Whether the column is derived from the payload, so that reprocessing may change it: every column but the ID,
    /// the payload, its digest and size, where it came from and the project it was sent to.
    package var isDerived: Bool {
        switch self {
        case .id, .sha256, .source, .payload, .payloadSize, .project: false
        default: true
        }
    }

    /// The columns, comma-separated, in table order.
    static let list = allCases.map(\.name).joined(separator: ", ")

    /// The columns a listing reads: every column but the payload (read as empty), and the trail only when asked.
    static func listing(trail: Bool, _ dialect: StoreDialect) -> String {
        allCases.map { column in
            switch column {
            case .trail where !trail: "NULL AS trail"
            case .payload: "\(dialect.emptyBlob) AS payload"
            case .payloadSize: "0 AS payloadSize"
            default: column.name
            }
        }.joined(separator: ", ")
    }
}
