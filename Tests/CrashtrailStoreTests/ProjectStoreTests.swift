import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// The projects `crashtrail serve` keeps in the store, on both backends.
@Suite("Projects in the store")
struct ProjectStoreTests {
    @Test("On SQLite: a store without projects gets one named default; add, revoke and copy keep IDs, names and keys")
    func onSQLite() throws { try Self.projects(kind: .sqlite) }

    @Test("On PostgreSQL: a store without projects gets one named default; add, revoke and copy keep IDs, names and keys", .needsPostgres)
    func onPostgres() throws { try Self.projects(kind: .postgres) }

    static func projects(kind: StoreKind) throws {
        // Given
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)

        // When
        let first = try store.activeProjectsCreatingDefault()
        let again = try store.activeProjectsCreatingDefault()
        let added = try store.addProject(name: "ios-app", key: "k-ios")
        let duplicate = #expect(throws: StoreError.self) { try store.addProject(name: "ios-app") }
        let revoked = try store.revokeProject("default")
        let unknown = #expect(throws: StoreError.self) { try store.revokeProject("nothing") }
        let (copy, _) = try TestStores.make(.sqlite, in: folder)
        let summary = try StoreCopy.copy(from: store, to: copy)

        // Then
        #expect(first.count == 1 && first[0].id == 1 && first[0].name == "default" && first[0].key.count == 32)
        #expect(again == first)
        #expect(added == Project(id: 2, name: "ios-app", key: "k-ios"))
        #expect(duplicate?.message.contains("already has a project named ios-app") == true)
        #expect(revoked.revoked && revoked.id == 1)
        #expect(unknown?.message.contains("1 (default), 2 (ios-app)") == true)
        #expect(try store.activeProjectsCreatingDefault() == [added])
        #expect(summary.projectsCopied == 2)
        #expect(try copy.projects() == store.projects())
        #expect(added.dsn(base: "https://crashes.example.com/") == "https://k-ios@crashes.example.com/2")
    }
}

/// Tokens and limits (SPEC section 19), on both backends, and a store of the release before them opened and migrated.
@Suite("Tokens and limits in the store")
struct TokenStoreTests {
    @Test("On SQLite: a token is kept as a hash, listed, revoked and copied; a limit is set and cleared")
    func onSQLite() throws { try Self.tokens(kind: .sqlite) }

    @Test("On PostgreSQL: a token is kept as a hash, listed, revoked and copied; a limit is set and cleared", .needsPostgres)
    func onPostgres() throws { try Self.tokens(kind: .postgres) }

    static func tokens(kind: StoreKind) throws {
        // Given
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        _ = try store.addProject(name: "ios-app", key: "k-ios")

        // When
        let (token, value) = try store.addToken(project: "ios-app", scopes: [.debugFiles, .read], created: 1_000)
        let (operatorToken, _) = try store.addToken(project: nil, scopes: [.read], created: 2_000)
        let unknownProject = #expect(throws: StoreError.self) { try store.addToken(project: "android", scopes: [.read], created: 0) }
        let limited = try store.setProjectLimit("ios-app", eventsPerMinute: 600)
        let revoked = try store.revokeToken(id: token.id)
        let unknownToken = #expect(throws: StoreError.self) { try store.revokeToken(id: 99) }
        let (copy, _) = try TestStores.make(.sqlite, in: folder)
        _ = try StoreCopy.copy(from: store, to: copy)
        let cleared = try store.setProjectLimit("1", eventsPerMinute: nil)

        // Then
        #expect(value.count == 64 && value.allSatisfy(\.isHexDigit))
        #expect(token.project == 1 && token.scopes == [.debugFiles, .read] && token.hint == String(value.prefix(8)))
        #expect(operatorToken.project == .all)
        let stored = try store.tokens()
        #expect(stored.map(\.id) == [1, 2])
        #expect(stored[0].hash == AccessToken.hash(of: value) && stored[0].revoked)
        #expect(!(try store.read { db in try db.strings("SELECT hash FROM token", []) }).contains(value), "the value is never stored")
        #expect(unknownProject?.message.contains("no project has the ID or name android") == true)
        #expect(revoked.revoked)
        #expect(unknownToken?.message.contains("no token has the ID 99; the active tokens are 2") == true)
        #expect(limited.eventsPerMinute == 600)
        #expect(try copy.projects().first?.eventsPerMinute == 600)
        #expect(try copy.tokens() == stored)
        #expect(try cleared.eventsPerMinute == nil && store.projects().first?.eventsPerMinute == nil)
        #expect(AccessToken.constantTimeEqual("abc", "abc") && !AccessToken.constantTimeEqual("abc", "abd"))
        #expect(!AccessToken.constantTimeEqual("abc", "abcd") && !AccessToken.constantTimeEqual("", "a"))
        #expect(!AccessToken.constantTimeEqual("", String(repeating: "\0", count: 256)), "lengths 256 apart differ")
    }

    @Test("A SQLite store of the release before tokens opens and migrates: its projects and reports stay, limits and tokens start empty")
    func previousSQLiteRelease() throws {
        // Given a store written by the previous release's migrations (up to v18), with a project and an upload chunk
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("old.sqlite").path
        try SQLiteBackend.migrateForTests(
            path: path, upTo: "v18: release health",
            then: [
                "INSERT INTO project (id, name, key, revoked) VALUES (1, 'default', 'k-old', 0)",
                "INSERT INTO uploadChunk (sha1, data, added) VALUES ('00', x'01', '2026-01-01T00:00:00Z')",
            ])

        // When this version opens it
        let store = try ReportStore.open(path: path)

        // Then
        #expect(try store.projects() == [Project(id: 1, name: "default", key: "k-old")])
        #expect(try store.tokens().isEmpty)
        #expect(try store.uploadChunkBytes(project: .unassigned) == 1, "chunks kept before count against no project")
        #expect(try store.read { db in try db.value("SELECT COUNT(*) FROM grdb_migrations", [])?.integer } == 23)
    }

    @Test("A PostgreSQL store of the release before tokens opens and migrates", .needsPostgres)
    func previousPostgresRelease() throws {
        // Given a database with the previous release's migrations (up to v15), with a project and an upload chunk
        let url = try TestStores.previousReleaseDatabase(
            upTo: "v15: release health",
            then: [
                "INSERT INTO project (id, name, key, revoked) VALUES (1, 'default', 'k-old', 0)",
                "INSERT INTO uploadChunk (sha1, data, added) VALUES ('\(String(repeating: "a", count: 40))', decode('00', 'hex'), '2026-11-29T00:00:00Z')",
            ])

        // When this version opens it
        let store = try TestStores.open(url)

        // Then
        #expect(try store.projects() == [Project(id: 1, name: "default", key: "k-old")])
        #expect(try store.tokens().isEmpty)
        #expect(try store.read { db in try db.value("SELECT COUNT(*) FROM crashtrail_migrations", [])?.integer } == 20)
        // The chunk kept before tokens had no project: it is an operator's upload (project 0)
        #expect(
            try store.uploadChunks(among: [String(repeating: "a", count: 40)], project: .unassigned) == [String(repeating: "a", count: 40)])
    }
}
