import CrashtrailReports

/// The one description of how the kept counts follow the reports, for both backends.
///
/// It says which changes of `report` and `joinedTrail` move a report's counts, and which rows each takes away or adds
/// (SQLite migrations `v11` and `v12`, PostgreSQL `v7` and `v9`). Each backend renders it its own way (`SQLiteGroupCounts`, `SQLitePathCounts`, and PostgreSQL's), SQLite as
/// row triggers that update a count in place, PostgreSQL as statement triggers that insert deltas.
///
/// A report counts for what `reportWithTrail` shows of it: its own row, with a joined trail laid over it when one
/// joined it (`joined` as its trail source, and the trail's screen path). Each trigger takes away what the changed
/// rows counted for before and adds what they count for after, so every writer (ingest, a join, reprocess, a copy, a
/// hand-made `DELETE`) keeps the counts without knowing of them.
///
/// What generates a released migration's text: `ReleasedMigrationTests` pins that text byte for byte.
package enum CountTriggers {
    /// The table whose changes a trigger follows.
    package enum Table: String, Sendable {
        case report
        case joinedTrail
    }

    /// The change a trigger follows.
    package enum Event: String, Sendable {
        case insert, delete, update

        /// The event's keyword in SQL.
        package var keyword: String { rawValue.uppercased() }
    }

    /// How a set of rows shows a report.
    package enum View: Sendable {
        /// As `reportWithTrail` shows the changed `report` row: with its joined trail, if one joined it.
        case shown
        /// The report of a changed `joinedTrail` row, without that trail.
        case withoutJoined
        /// The report of a changed `joinedTrail` row, with that trail.
        case withJoined
    }

    /// Rows a trigger counts: the changed rows' old or new values, shown as `view`, each counting `sign`.
    package struct Rows: Sendable {
        package var view: View
        /// Whether the rows are the changed rows' values before the change (else after it).
        package var old: Bool
        /// 1 to add the rows to their keys' counts, -1 to take them away.
        package var sign: Int
    }

    /// One trigger: the change it follows and the rows it counts, in order.
    package struct Trigger: Sendable {
        package var table: Table
        package var event: Event
        package var rows: [Rows]

        /// Whether it runs before the change: a report's delete, since after it the joined trail the delete removes
        /// with its report may be gone already.
        package var runsBefore: Bool { table == .report && event == .delete }

        /// Whether it moves only what depends on a report's trail (its trail source and screen path), not its app
        /// version or day: a joined trail changes nothing else of its report.
        package var movesTrailOnly: Bool { table == .joinedTrail }
    }

    /// Every trigger, in the order the migrations create them.
    package static let triggers: [Trigger] = [
        Trigger(table: .report, event: .insert, rows: [Rows(view: .shown, old: false, sign: 1)]),
        Trigger(table: .report, event: .delete, rows: [Rows(view: .shown, old: true, sign: -1)]),
        Trigger(table: .report, event: .update, rows: [Rows(view: .shown, old: true, sign: -1), Rows(view: .shown, old: false, sign: 1)]),
        Trigger(
            table: .joinedTrail, event: .insert,
            rows: [Rows(view: .withoutJoined, old: false, sign: -1), Rows(view: .withJoined, old: false, sign: 1)]),
        Trigger(
            table: .joinedTrail, event: .delete,
            rows: [Rows(view: .withJoined, old: true, sign: -1), Rows(view: .withoutJoined, old: true, sign: 1)]),
        Trigger(
            table: .joinedTrail, event: .update,
            rows: [
                Rows(view: .withJoined, old: true, sign: -1), Rows(view: .withoutJoined, old: true, sign: 1),
                Rows(view: .withoutJoined, old: false, sign: -1), Rows(view: .withJoined, old: false, sign: 1),
            ]),
    ]

    /// The trail sources of a report with a trail, as an SQL list: `('embedded', 'joined', 'inferred')`.
    package static let trailedSources = TrailInfo.Source.sqlList(TrailInfo.Source.withTrail)
}
