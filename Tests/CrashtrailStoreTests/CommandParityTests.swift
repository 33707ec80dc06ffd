import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// Every command, run on the samples against a PostgreSQL store, prints what it prints against SQLite, byte for byte,
/// and ends with the same exit status: one store abstraction, two backends, nothing in the commands that tells them
/// apart.
@Suite("Commands on PostgreSQL print what they print on SQLite", .needsPostgres)
struct CommandParityTests {
    /// The commands, in order, after the store is named; `SITE` is a folder of the run's own.
    static let commands: [[String]] = [
        [
            "ingest", "Samples/reports", "--trails", "Samples/trails", "--manifest", "Samples/PirateBay/Sources/PirateBay/piratebay.yml",
            "--json",
        ],
        ["ingest", "Samples/reports", "--quiet"],
        ["list"],
        ["list", "--reports"],
        ["list", "--format", "json"],
        ["list", "--reports", "--format", "json", "--version", "3.1.0"],
        ["list", "--reports", "--since", "2026-11-02T08:20:00Z", "--until", "2026-11-02T08:30:00Z"],
        ["show", "2DCB"],
        ["show", "5790f65c"],
        ["show", "no-such-report"],
        ["paths"],
        ["paths", "--format", "json", "--last", "2"],
        ["replay", "2DCB"],
        ["replay", "2DCB", "--format", "json"],
        ["replay", "2DCB", "--format", "html"],
        ["replay", "2DCB", "--format", "simctl"],
        ["replay", "2DCB", "--format", "xcuitest"],
        ["manifest", "add", "Samples/PirateBay/Sources/PirateBay/piratebay.yml"],
        ["reprocess", "--quiet"],
        ["report", "--html", "SITE", "--quiet"],
        ["list", "--reports"],
        ["grouping", "set", "rules.txt"],
        ["group", "merge", "25e57bce", "12362e30"],
        ["reprocess"],
        ["list", "--format", "json"],
    ]

    /// The grouping rules `grouping set` keeps: one fingerprint rule, one stack-trace rule.
    static let rules = """
        error.type:EXC_BAD_ACCESS -> memory, {{ type }}
        function:CheckoutView.body.getter -group
        """

    @Test("Every command's output and exit status are the same on both stores")
    func sameOutput() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let postgres = try TestStores.newDatabase()
        let folder = try TemporaryFolder("parity")
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("Samples"), withDestinationURL: PackageRoot.url.appendingPathComponent("Samples"))
        // The SQLite file has the database's name, so the pages that name their store read the same.
        let database = try #require(postgres.split(separator: "/").last.map(String.init))
        let sqlite = folder.url.appendingPathComponent(database).path
        try Self.rules.write(to: folder.url.appendingPathComponent("rules.txt"), atomically: true, encoding: .utf8)
        var ran = 0
        for command in Self.commands {
            var outputs: [CommandRunner.Result] = []
            for (index, store) in [sqlite, postgres].enumerated() {
                let site = folder.url.appendingPathComponent("site-\(index)").path
                let arguments = command.map { $0 == "SITE" ? site : $0 }
                // The store comes from CRASHTRAIL_STORE, as a team's jobs set it once.
                outputs.append(try runner.run(arguments, directory: folder.url, environment: ["CRASHTRAIL_STORE": store]))
            }
            let (onSQLite, onPostgres) = (outputs[0], outputs[1])
            let line = command.joined(separator: " ")
            #expect(onSQLite.status == (command == ["show", "no-such-report"] ? 1 : 0), "\(line): \(onSQLite.stderr)")
            #expect(
                onSQLite.status == onPostgres.status,
                "\(line): exit \(onSQLite.status) on SQLite, \(onPostgres.status) on PostgreSQL\n\(onPostgres.stderr)")
            #expect(Self.normalized(onSQLite.stdout) == Self.normalized(onPostgres.stdout), "\(line): standard output differs")
            #expect(
                Self.normalized(onSQLite.stderr.replacingOccurrences(of: sqlite, with: "STORE"))
                    == Self.normalized(onPostgres.stderr.replacingOccurrences(of: postgres, with: "STORE")),
                "\(line): standard error differs")
            ran += 1
        }
        #expect(ran == Self.commands.count)
        // The triage sites are the same files with the same bytes.
        let sites = ["site-0", "site-1"].map { folder.url.appendingPathComponent($0) }
        let files = try sites.map { site in
            try FileManager.default.subpathsOfDirectory(atPath: site.path).sorted()
        }
        #expect(files[0] == files[1] && files[0].count > 10)
        for file in files[0] where file.hasSuffix(".html") {
            let pages = try sites.map { try Data(contentsOf: $0.appendingPathComponent(file)) }
            #expect(pages[0] == pages[1], "\(file) differs")
        }
    }

    /// Output without the figures that differ from run to run (the job's seconds and rate).
    static func normalized(_ text: String) -> String {
        text.replacing(/"seconds":[0-9.e-]+/, with: "\"seconds\":0")
            .replacing(/in [0-9.]+ s \([0-9,]+ inputs\/s\)/, with: "in S")
    }
}
