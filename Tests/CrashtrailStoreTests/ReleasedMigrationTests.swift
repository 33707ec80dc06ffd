import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailPostgres
@testable import CrashtrailStore

/// Released migrations are never edited: the text each backend runs is byte for byte the text it ran when released,
/// including the migrations whose statements are generated (the count triggers), so a refactoring of what generates
/// them cannot change a store's schema.
@Suite("Released migrations")
struct ReleasedMigrationTests {
    /// The folder of the released texts.
    static let folder = PackageRoot.url.appendingPathComponent("Tests/Fixtures/migrations")

    /// The text of every PostgreSQL migration, in order, each headed by its identifier.
    static var postgresText: String {
        PostgresMigrations.all.map { migration in
            "-- \(migration.identifier)\n" + migration.statements.map { $0 + ";\n" }.joined()
        }.joined(separator: "\n")
    }

    /// The text the code makes now for a released file.
    static func text(of file: String) -> String {
        switch file {
        case "sqlite-v11-group-counts.sql": SQLiteGroupCounts.migration
        case "sqlite-v12-path-counts.sql": SQLitePathCounts.migration
        default: postgresText
        }
    }

    @Test(
        "Each generated migration's text is the released one",
        arguments: ["sqlite-v11-group-counts.sql", "sqlite-v12-path-counts.sql", "postgres.sql"])
    func releasedText(file: String) throws {
        let released = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
        #expect(Self.text(of: file) == released, "\(file) differs from the released text; a schema change is a new migration")
    }
}
