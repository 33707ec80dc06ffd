import CrashtrailCore
import CrashtrailEncoding
import CrashtrailReports

/// Trails that arrive apart from their crashes, and the crashes awaiting them: joins by app, pid and launch time
/// (SPEC section 7).
extension ReportStore {
    /// When a `report` row still awaits a recorded trail: stored without one (or with one inferred from breadcrumbs),
    /// and none joined since (`joinedTrail`).
    ///
    /// The sources are written as literals, not bound: the join index (`report_join`) covers only these rows, and a
    /// planner uses a partial index only for a condition it can see implies the index's.
    static let awaitsTrail =
        "trailSource IN \(TrailInfo.Source.sqlList(TrailInfo.Source.awaitingRecorded)) AND NOT EXISTS (SELECT 1 FROM joinedTrail WHERE joinedTrail.id = report.id)"

    /// Candidates for joining separate trails: reports missing a trail that have a bundle ID, pid and launch time.
    /// - Throws: `StoreError` (`database`).
    package func countReportsAwaitingTrail() throws(StoreError) -> Int {
        try read { db in
            try db.value(
                """
                SELECT COUNT(*) FROM report
                WHERE \(Self.awaitsTrail) AND bundleID IS NOT NULL AND pid IS NOT NULL AND launchTime IS NOT NULL
                """
            )?.integer.map(Int.init) ?? 0
        }
    }

    /// Reports of `project` still missing a trail that a trail from this app, pid and session start could belong to:
    /// launched within `tolerance` milliseconds of `started`.
    /// - Throws: `StoreError` (`database`).
    package func reportsAwaitingTrail(
        bundleID: String, pid: Int64, started: Int64, tolerance: Int64, project: ProjectID = .first
    ) throws(StoreError) -> [String] {
        try read { db in
            try Self.idsAwaitingTrail(bundleID: bundleID, pid: pid, started: started, tolerance: tolerance, project: project, in: db)
        }
    }

    /// Attaches a trail that arrived separately to a stored report.
    /// - Parameters:
    ///   - trail: the recorded trail.
    ///   - id: the report's ID.
    ///   - crashScreen: the screen on top at the crash by the trail, which names the group of a crash without frames.
    ///   - screenPath: the trail's last screens as the app's manifest replays them, when a manifest is known.
    /// - Throws: `StoreError` (`database`).
    package func attachTrail(
        _ trail: Trail, toReport id: String, crashScreen: String? = nil, screenPath: StoredScreenPath? = nil
    ) throws(StoreError) {
        let decoded = DecodedTrail(trail)
        _ = try write { db in try Self.attach(decoded, toReport: id, crashScreen: crashScreen, screenPath: screenPath, in: db) }
    }

    /// Attaches a separate trail (and the dictionary ID it was decoded with, if any) to a stored report still missing
    /// a recorded one, inside a transaction; returns whether it did.
    ///
    /// Takes the trail with its canonical JSON already written, so the writer's transaction does no encoding. The
    /// trail goes to a row of its own (`joinedTrail`), so the report row and its payload are not rewritten; its
    /// primary key makes a second join of the same report, by this job or another, change nothing. A recorded trail
    /// wins over one inferred from breadcrumbs (SPEC section 15): it is laid over it the same way. A crash without
    /// frames moves to the group of `crashScreen`, the screen on top at the crash by this trail (its signature is the
    /// one column of the report row rewritten, and only for such crashes).
    /// - Parameters:
    ///   - decoded: the trail, its canonical JSON written.
    ///   - id: the report.
    ///   - crashScreen: the screen on top at the crash by the trail.
    ///   - screenPath: the trail's last screens as the app's manifest replays them.
    ///   - db: the write transaction.
    /// - Returns: whether the trail was attached.
    /// - Throws: the backend's error.
    @discardableResult
    package static func attach(
        _ decoded: DecodedTrail, toReport id: String, crashScreen: String? = nil, screenPath: StoredScreenPath? = nil,
        in db: any StoreTransaction
    ) throws -> Bool {
        let awaiting = TrailInfo.Source.bound(TrailInfo.Source.awaitingRecorded)
        return try insertJoinedTrail(
            decoded, from: "SELECT id, ?, ?, ?, ?, ?, ? FROM report WHERE id = ? AND trailSource IN \(awaiting.sql)",
            [.text(id)] + awaiting.values, crashScreen: crashScreen, screenPath: screenPath, in: db) != nil
    }

    /// Inserts `decoded` into `joinedTrail` for the report `select` chooses (its columns: the report's ID, then six
    /// placeholders for ``joinedTrailValues(_:screenPath:)``, then `arguments`), unless that report has one, and moves
    /// the report when it is a crash without frames; returns its ID, or nil when nothing was inserted.
    ///
    /// The insert returns the report's signature too: one statement, which on PostgreSQL is one round trip.
    private static func insertJoinedTrail(
        _ decoded: DecodedTrail, from select: String, _ arguments: [StoreValue], crashScreen: String?,
        screenPath: StoredScreenPath?, in db: any StoreTransaction
    ) throws -> String? {
        let rows = try db.rows(
            """
            INSERT INTO joinedTrail (id, steps, trail, dictionary, screenPath, pathManifest, digest)
            \(select)
            ON CONFLICT (id) DO NOTHING
            RETURNING id, (SELECT signature FROM report WHERE report.id = joinedTrail.id) AS signature
            """, joinedTrailValues(decoded, screenPath: screenPath) + arguments)
        guard let row = rows.first, let id = row.string("id") else { return nil }
        if let signature = row.string("signature") { try moveIfStackless(id, signature: signature, crashScreen: crashScreen, in: db) }
        return id
    }

    /// The values of a `joinedTrail` row after its ID: steps, trail, dictionary, screen path and its manifest, digest.
    private static func joinedTrailValues(_ decoded: DecodedTrail, screenPath: StoredScreenPath?) -> [StoreValue] {
        [
            .integer(Int64(decoded.trail.steps.count)), .text(String(decoding: decoded.canonicalJSON, as: UTF8.self)),
            StoreValue(decoded.dictionaryID), StoreValue(screenPath?.screensJSON), StoreValue(screenPath?.manifest),
            .blob(trailDigest(decoded.canonicalJSON)),
        ]
    }

    /// Moves a crash without frames, whose trail was just joined, to the group of the screen at the crash.
    static func moveIfStackless(_ id: String, signature: String, crashScreen: String?, in db: any StoreTransaction) throws {
        let renamed = StacklessSignature.renamed(signature, crashScreen: crashScreen)
        if renamed != signature { try db.execute("UPDATE report SET signature = ? WHERE id = ?", [.text(renamed), .text(id)]) }
    }

    /// Reports of `project` missing a trail that `trail` may belong to (same app and pid, launched within `tolerance`
    /// ms of `started`), closest launch first, inside a transaction.
    /// - Throws: the backend's error.
    package static func idsAwaitingTrail(
        bundleID: String, pid: Int64, started: Int64, tolerance: Int64, project: ProjectID = .first,
        in db: any StoreTransaction
    ) throws -> [String] {
        try db.strings(
            awaitingTrailSQL(columns: "id", limit: nil),
            awaitingTrailArguments(project: project, bundleID: bundleID, pid: pid, started: started, tolerance: tolerance))
    }

    /// Attaches a separate trail to the stored crash it belongs to, as ``attach(_:toReport:crashScreen:screenPath:in:)``
    /// does, inside a transaction; returns that report's ID, or nil when no report awaits the trail.
    ///
    /// Only a report of `project` is chosen (SPEC section 19). The crash that carries the trail's session (SPEC section
    /// 18) is chosen first, however long ago its process started; else the closest report
    /// ``idsAwaitingTrail(bundleID:pid:started:tolerance:project:in:)`` finds that carries no other session. Each is chosen, the trail attached and the report's signature read in one statement (a round
    /// trip on PostgreSQL, which a join of many trail files is made of); a crash without frames then moves to the
    /// group of `crashScreen`.
    /// - Throws: the backend's error.
    package static func joinClosestReport(
        _ decoded: DecodedTrail, bundleID: String, pid: Int64, started: Int64, tolerance: Int64, crashScreen: String? = nil,
        screenPath: StoredScreenPath? = nil, project: ProjectID = .first, in db: any StoreTransaction
    ) throws -> String? {
        let session = decoded.trail.session.id
        for (sql, arguments) in reportForTrail(
            columns: "report.id, ?, ?, ?, ?, ?, ?", project: project, bundleID: bundleID, session: session, pid: pid, started: started,
            tolerance: tolerance)
        {
            let joined = try insertJoinedTrail(decoded, from: sql, arguments, crashScreen: crashScreen, screenPath: screenPath, in: db)
            if let joined { return joined }
        }
        return nil
    }

    /// The rule that chooses the report a trail joins (SPEC sections 7 and 18), written once for a trail file, a trail
    /// posted to serve and a trail that waited: two queries, tried in order, each selecting `columns` of at most one
    /// report of `project` that still awaits a recorded trail.
    ///
    /// 1. The crash that carries the trail's session, however long ago its process started.
    /// 2. Else the crash of the same app and pid launched closest to `started`, within `tolerance` milliseconds, that
    ///    carries no other session.
    static func reportForTrail(
        columns: String, project: ProjectID, bundleID: String, session: String, pid: Int64, started: Int64, tolerance: Int64
    ) -> [(sql: String, arguments: [StoreValue])] {
        [
            (
                """
                SELECT \(columns) FROM reportSession JOIN report ON report.id = reportSession.id
                WHERE reportSession.bundleID = ? AND reportSession.session = ? AND report.project = ? AND \(Self.awaitsTrail)
                ORDER BY report.id LIMIT 1
                """, [.text(bundleID), .text(session), StoreValue(project)]
            ),
            (
                awaitingTrailSQL(columns: columns, limit: 1, session: true),
                awaitingTrailArguments(
                    project: project, bundleID: bundleID, pid: pid, started: started, tolerance: tolerance, session: session)
            ),
        ]
    }

    /// The reports awaiting a trail of an app and pid launched within the tolerance, closest first; with `session`,
    /// those carrying another session than the one bound last are left out.
    private static func awaitingTrailSQL(columns: String, limit: Int?, session: Bool = false) -> String {
        let otherSession =
            session ? " AND NOT EXISTS (SELECT 1 FROM reportSession WHERE reportSession.id = report.id AND reportSession.session <> ?)" : ""
        return """
            SELECT \(columns) FROM report
            WHERE \(Self.awaitsTrail) AND report.project = ? AND bundleID = ? AND pid = ? AND launchTime BETWEEN ? AND ?\(otherSession)
            ORDER BY ABS(launchTime - ?), id\(limit.map { " LIMIT \($0)" } ?? "")
            """
    }

    private static func awaitingTrailArguments(
        project: ProjectID, bundleID: String, pid: Int64, started: Int64, tolerance: Int64, session: String? = nil
    ) -> [StoreValue] {
        [StoreValue(project), .text(bundleID), .integer(pid), .integer(started - tolerance), .integer(started + tolerance)]
            + (session.map { [.text($0)] } ?? [])
            + [.integer(started)]
    }

    /// The report of `project` that already has exactly this trail joined (the crash of its session, or one of the same
    /// app and pid launched within `tolerance` ms of `started`), so a trail sent again joins nothing new and is answered
    /// with its report.
    ///
    /// The joined trail is found by its digest (`joinedTrail_digest`), then its report checked: a lookup, whatever the
    /// store holds.
    /// - Throws: the backend's error.
    package static func reportJoined(
        to decoded: DecodedTrail, started: Int64, tolerance: Int64, project: ProjectID = .first,
        in db: any StoreTransaction
    ) throws -> String? {
        let project = StoreValue(project)
        let digest = StoreValue.blob(trailDigest(decoded.canonicalJSON))
        let bySession = try db.strings(
            """
            SELECT joinedTrail.id FROM joinedTrail JOIN reportSession ON reportSession.id = joinedTrail.id
                JOIN report ON report.id = joinedTrail.id
            WHERE joinedTrail.digest = ? AND reportSession.bundleID = ? AND reportSession.session = ? AND report.project = ?
            ORDER BY joinedTrail.id LIMIT 1
            """, [digest, .text(decoded.trail.app.bundleID), .text(decoded.trail.session.id), project]
        ).first
        if let bySession { return bySession }
        return try db.strings(
            """
            SELECT report.id FROM joinedTrail JOIN report ON report.id = joinedTrail.id
            WHERE joinedTrail.digest = ? AND report.bundleID = ? AND report.pid = ? AND report.launchTime BETWEEN ? AND ?
                AND report.project = ?
            ORDER BY report.id LIMIT 1
            """,
            [
                digest, .text(decoded.trail.app.bundleID), .integer(decoded.trail.session.pid), .integer(started - tolerance),
                .integer(started + tolerance), project,
            ]
        ).first
    }
}
