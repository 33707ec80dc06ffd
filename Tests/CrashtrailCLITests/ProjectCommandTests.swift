import CrashtrailCore
import CrashtrailService
import CrashtrailStore
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

    @Test("token add prints the token once, alone on the last line; list never shows it; revoke and limit name what changed")
    func tokensAndLimits() throws {
        // Given
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try runner.run(["project", "add", "ios-app", "--store", "s.sqlite"], directory: folder.url)

        // When
        let made = try runner.run(
            ["project", "token", "add", "ios-app", "--scope", "debug-files", "--store", "s.sqlite"], directory: folder.url)
        let operatorToken = try runner.run(
            ["project", "token", "add", "--all-projects", "--scope", "read", "--store", "s.sqlite"], directory: folder.url)
        let badScope = try runner.run(
            ["project", "token", "add", "ios-app", "--scope", "write", "--store", "s.sqlite"], directory: folder.url)
        let noProject = try runner.run(["project", "token", "add", "--scope", "read", "--store", "s.sqlite"], directory: folder.url)
        let listed = try runner.run(["project", "token", "list", "--store", "s.sqlite"], directory: folder.url)
        let revoked = try runner.run(["project", "token", "revoke", "1", "--store", "s.sqlite"], directory: folder.url)
        let limited = try runner.run(
            ["project", "limit", "ios-app", "--events-per-minute", "600", "--store", "s.sqlite"], directory: folder.url)
        let negative = try runner.run(
            ["project", "limit", "ios-app", "--events-per-minute", "-1", "--store", "s.sqlite"], directory: folder.url)

        // Then
        #expect(made.status == 0, "\(made.stderr)")
        let token = try #require(made.stdout.split(separator: "\n").last.map(String.init))
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit), "\(made.stdout)")
        #expect(made.stdout.contains("Made token 1 for project 1, scopes debug-files."))
        #expect(operatorToken.stdout.contains("Made token 2 for every project, scopes read."))
        #expect(badScope.status != 0 && badScope.stderr.contains("--scope write names no scope"), "\(badScope.stderr)")
        #expect(noProject.status != 0 && noProject.stderr.contains("or give --all-projects"), "\(noProject.stderr)")
        #expect(!listed.stdout.contains(token), "a listing never shows a token")
        #expect(listed.stdout.contains("1  1 (ios-app)  debug-files  \(token.prefix(8))…"), "\(listed.stdout)")
        #expect(listed.stdout.contains("2  all projects  read  "))
        #expect(revoked.stdout.contains("Revoked token 1 (\(token.prefix(8))…)"))
        #expect(limited.stdout == "Project 1 (ios-app) takes at most 600 events a minute.\n")
        #expect(negative.status != 0)
    }

    @Test("ingest --project: a store with several projects needs one named, and the reports go to it")
    func ingestIntoAProject() throws {
        // Given a store with two projects and a crash file
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let crash = PackageRoot.url.appendingPathComponent("Samples/reports/sentry-event-no-trail.json").path
        _ = try runner.run(["project", "add", "ios", "--store", "s.sqlite"], directory: folder.url)
        _ = try runner.run(["project", "add", "android", "--store", "s.sqlite"], directory: folder.url)

        // When it is ingested without a project, into android, then into ios
        let unnamed = try runner.run(["ingest", crash, "--store", "s.sqlite", "--quiet"], directory: folder.url)
        let intoAndroid = try runner.run(["ingest", crash, "--store", "s.sqlite", "--project", "android", "--json"], directory: folder.url)
        let intoIOS = try runner.run(["ingest", crash, "--store", "s.sqlite", "--project", "1", "--json"], directory: folder.url)
        let unknown = try runner.run(["ingest", crash, "--store", "s.sqlite", "--project", "web"], directory: folder.url)

        // Then the first is refused naming the projects and the option; each project stores the crash once
        #expect(unnamed.status != 0)
        #expect(unnamed.stderr.contains("1 (ios), 2 (android)") && unnamed.stderr.contains("--project"), "\(unnamed.stderr)")
        #expect(intoAndroid.status == 0 && intoAndroid.stdout.contains(#""stored":1"#), "\(intoAndroid.stdout)\(intoAndroid.stderr)")
        #expect(intoIOS.status == 0 && intoIOS.stdout.contains(#""stored":1"#), "\(intoIOS.stdout)\(intoIOS.stderr)")
        #expect(unknown.status != 0 && unknown.stderr.contains("no project has the ID or name web"), "\(unknown.stderr)")
        let records = try TriageService(location: StoreLocation(folder.url.appendingPathComponent("s.sqlite").path), creating: false)
            .store.allRecords()
        #expect(Set(records.map(\.project)) == [1, 2])

        // When a file under a folder named api/2/ (as serve names its sources) is ingested into ios
        let nested = folder.url.appendingPathComponent("api/2")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: crash, toPath: nested.appendingPathComponent("crash.json").path)
        for name in ["ios", "android"] { _ = try runner.run(["project", "add", name, "--store", "t.sqlite"], directory: folder.url) }
        let byPath = try runner.run(
            ["ingest", "api/2/crash.json", "--store", "t.sqlite", "--project", "ios", "--json"], directory: folder.url)

        // Then it goes to ios: only serve's sources name a project
        #expect(byPath.status == 0, "\(byPath.stderr)")
        let nestedRecords = try TriageService(
            location: StoreLocation(folder.url.appendingPathComponent("t.sqlite").path), creating: false
        ).store.allRecords()
        #expect(nestedRecords.map(\.project) == [1])
    }

    @Test("list, show, paths and report --project show one project's crashes: the same crash is a group in each")
    func readOneProject() throws {
        // Given a store with two projects: ios has the samples, android one of them
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let samples = PackageRoot.url.appendingPathComponent("Samples/reports").path
        let manifest = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml").path
        let crash = PackageRoot.url.appendingPathComponent("Samples/reports/sentry-event-no-trail.json").path
        for name in ["ios", "android"] { _ = try runner.run(["project", "add", name, "--store", "s.sqlite"], directory: folder.url) }
        let trails = PackageRoot.url.appendingPathComponent("Samples/trails").path
        let filled = try runner.run(
            ["ingest", samples, "--trails", trails, "--manifest", manifest, "--store", "s.sqlite", "--project", "ios", "--quiet"],
            directory: folder.url)
        try #require(filled.status == 0, "\(filled.stderr)")
        _ = try runner.run(["ingest", crash, "--store", "s.sqlite", "--project", "android", "--quiet"], directory: folder.url)
        let store = try TriageService(location: StoreLocation(folder.url.appendingPathComponent("s.sqlite").path), creating: false).store
        let records = try store.allRecords()
        let androidSignature = records.first { $0.project == 2 }?.signature
        let iosReport = try #require(records.first { $0.project == 1 && $0.signature != androidSignature })

        // When each reads with --project
        func run(_ arguments: [String]) throws -> CommandRunner.Result {
            try runner.run(arguments + ["--store", "s.sqlite"], directory: folder.url)
        }
        let android = try run(["list", "--project", "android", "--format", "json"])
        let androidReports = try run(["list", "--reports", "--project", "2", "--format", "json"])
        let ios = try run(["list", "--project", "ios", "--format", "json"])
        let every = try run(["list", "--format", "json"])
        let hidden = try run(["show", iosReport.id, "--project", "android"])
        let shown = try run(["show", iosReport.id, "--project", "ios"])
        let paths = try run(["paths", "--project", "android", "--format", "json"])
        let unknown = try run(["list", "--project", "web"])
        let site = try run(["report", "--html", folder.url.appendingPathComponent("site").path, "--project", "android", "--quiet"])
        // The trails of sessions that did not crash, ingested into android, count for android's health only
        let sessions = PackageRoot.url.appendingPathComponent("Samples/sessions").path
        let counted = try run(["ingest", "--trails", sessions, "--manifest", manifest, "--project", "android", "--quiet"])
        let androidRates = try run(["paths", "--rate", "--project", "android", "--format", "json"])
        let iosRates = try run(["paths", "--rate", "--project", "ios"])

        // Then android has its one crash, ios its own, and every project's list counts both
        func total(_ result: CommandRunner.Result) throws -> Int {
            let groups = try JSONParser.parse(Array(result.stdout.utf8)).arrayValue ?? []
            return groups.compactMap { $0["count"]?.intValue }.reduce(0) { $0 + Int($1) }
        }
        let stored = try store.allRecords()
        #expect(android.status == 0, "\(android.stderr)")
        #expect(try total(android) == 1, "\(android.stdout)")
        #expect(try JSONParser.parse(Array(androidReports.stdout.utf8)).arrayValue?.count == 1)
        #expect(try total(ios) == stored.filter { $0.project == 1 }.count)
        #expect(try total(every) == stored.count)
        #expect(hidden.status != 0 && hidden.stderr.contains("no"), "\(hidden.stderr)")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(paths.status == 0, "\(paths.stderr)")
        #expect(unknown.status != 0 && unknown.stderr.contains("no project has the ID or name web"), "\(unknown.stderr)")
        #expect(site.status == 0, "\(site.stderr)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("site/groups").path)
        #expect(pages.count == 1, "\(pages)")
        #expect(counted.status == 0, "\(counted.stderr)")
        #expect(androidRates.status == 0, "\(androidRates.stderr)")
        #expect(iosRates.status != 0 && iosRates.stderr.contains("for project ios"), "\(iosRates.stderr)")
    }
}
