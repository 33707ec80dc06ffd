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
