import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail project add|list|revoke`: the projects `crashtrail serve` accepts, kept in the store.
@Suite("crashtrail project")
struct ProjectCommandTests {
    @Test("add prints a DSN, list shows it, revoke refuses it from then on; a second add of a name and an unknown revoke fail")
    func addListRevoke() throws {
        // Given
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }

        // When
        let empty = try runner.run(["project", "list", "--store", "s.sqlite"], directory: folder.url)
        let added = try runner.run(
            ["project", "add", "ios-app", "--store", "s.sqlite", "--url", "https://crashes.example.com"], directory: folder.url)
        let again = try runner.run(["project", "add", "ios-app", "--store", "s.sqlite"], directory: folder.url)
        let listed = try runner.run(["project", "list", "--store", "s.sqlite"], directory: folder.url)
        let revoked = try runner.run(["project", "revoke", "ios-app", "--store", "s.sqlite"], directory: folder.url)
        let unknown = try runner.run(["project", "revoke", "android", "--store", "s.sqlite"], directory: folder.url)
        let after = try runner.run(["project", "list", "--store", "s.sqlite"], directory: folder.url)

        // Then
        #expect(empty.status == 1, "no store yet: \(empty.stderr)")
        #expect(added.status == 0)
        let dsn = try #require(added.stdout.firstMatch(of: /https:\/\/([0-9a-f]{32})@crashes\.example\.com\/1/), "\(added.stdout)")
        #expect(again.status == 1)
        #expect(again.stderr.contains("already has a project named ios-app"))
        #expect(listed.stdout == "1  ios-app  http://\(dsn.output.1)@127.0.0.1:8000/1\n")
        #expect(revoked.status == 0)
        #expect(revoked.stdout.contains("Revoked project 1 (ios-app)"))
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no project has the ID or name android; the store has 1 (ios-app)"))
        #expect(after.stdout == "1  ios-app  revoked\n")
    }
}
