import CrashtrailReports

/// A trail source in the store's statements: written once, as ``TrailInfo/Source``'s raw values.
extension TrailInfo.Source {
    /// The sources of a report with a trail to replay: `embedded`, `joined` and `inferred`.
    package static let withTrail = allCases.filter(\.hasTrail)

    /// The sources of a report that still awaits a recorded trail: none stored, or one inferred from breadcrumbs.
    package static let awaitingRecorded: [TrailInfo.Source] = [.missing, .inferred]

    /// `sources` as a list of placeholders and the values they bind: `(?, ?)` and `['missing', 'inferred']`.
    package static func bound(_ sources: [TrailInfo.Source]) -> (sql: String, values: [StoreValue]) {
        ("(" + sources.map { _ in "?" }.joined(separator: ", ") + ")", sources.map { .text($0.rawValue) })
    }

    /// The source as an SQL string literal (`'joined'`), for statements that cannot bind it: views, triggers, the
    /// migrations that make them, and conditions a partial index must recognize.
    package var sqlLiteral: String { "'\(rawValue)'" }

    /// `sources` as an SQL list of literals: `('missing', 'inferred')`.
    package static func sqlList(_ sources: [TrailInfo.Source]) -> String {
        "(" + sources.map(\.sqlLiteral).joined(separator: ", ") + ")"
    }
}
