import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// Inputs that try to break out of the quarantine folder or confuse the store: odd file names, report IDs
/// that look like paths, invalid UTF-8 and NUL bytes.
@Suite("Hostile input to crashtrail ingest")
struct HostileInputTests {
    static func report(id: String, extra: String = "") -> String {
        #"{"crashtrail":1,"id":"\#(id)","time":"2026-11-02T14:50:00Z"\#(extra)}"#
    }

    @Test("Refused files with hostile names all land inside the quarantine folder, one copy each")
    func hostileFileNames() throws {
        // Given: refused inputs whose names are path tricks, control characters, or collide once sanitized
        let folder = try TemporaryFolder("crashtrail-names")
        defer { folder.remove() }
        // (Names that collide once sanitized are in QuarantineCollisionTests.)
        let names = [
            "..json", "...", ".hidden-is-skipped", "-", "--json", "new\nline.json", "tab\there", "ø-ü.json", "\u{202E}txt.exe",
            String(repeating: "n", count: 250), "x/" + String(repeating: "m", count: 200), "a/b.json", "reason.txt", "z",
            "con", "nul.json", "*?<>|.json", "%2e%2e%2f", "'; DROP TABLE report; --",
        ]
        for (index, name) in names.enumerated() {
            try folder.write("not a crash report \(index)", to: "in/\(name)")
        }
        let quarantine = folder.url.appendingPathComponent("q")
        // When
        let (result, summary) = try ReliabilityCLI.ingest(
            [folder.url.appendingPathComponent("in").path], store: folder.url.appendingPathComponent("s.sqlite"),
            quarantine: quarantine, in: folder.url)
        // Then: every refused input has its own copy and reason inside the folder, and nothing landed elsewhere
        #expect(result.status == 0, "\(ReliabilityCLI.describe(result))")
        let rejected = ReliabilityCLI.count(summary, "rejected")
        // The walker skips dot files, as it skips hidden folders.
        let hidden = names.filter { $0.hasPrefix(".") }.count
        #expect(rejected == names.count - hidden, "\(result.stdout)")
        let snapshot = try StoreSnapshot.read(store: folder.url.appendingPathComponent("s.sqlite"), quarantine: quarantine)
        #expect(snapshot.quarantinedInputs.count == rejected, "quarantine holds \(snapshot.quarantinedInputs.sorted())")
        let contents = Set(
            snapshot.quarantine.filter { !$0.key.hasSuffix(".reason.txt") }.values.map { String(decoding: $0, as: UTF8.self) })
        #expect(contents.count == rejected, "some refused inputs overwrote others in the quarantine folder")
        for name in snapshot.quarantine.keys {
            #expect(!name.hasPrefix(".") && !name.contains("/") && name.utf8.count <= 255, "\(name)")
        }
        let top = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(top.filter { !$0.hasPrefix("s.sqlite") } == ["in", "q"], "\(top)")
    }

    @Test("Report IDs that look like paths are stored as data and found again, never used as file names")
    func hostileReportIDs() throws {
        let folder = try TemporaryFolder("crashtrail-ids")
        defer { folder.remove() }
        let ids = [
            "../../../../tmp/crashtrail-escape", "/etc/passwd", #"..\\..\\windows"#, "a\\u0000b", String(repeating: "x", count: 10_000),
            "%2e%2e%2f", "~", "id with spaces",
        ]
        for (index, id) in ids.enumerated() { try folder.write(Self.report(id: id), to: "in/r\(index).json") }
        let store = folder.url.appendingPathComponent("s.sqlite")
        let (result, summary) = try ReliabilityCLI.ingest(
            [folder.url.appendingPathComponent("in").path], store: store, quarantine: folder.url.appendingPathComponent("q"),
            in: folder.url)
        #expect(result.status == 0, "\(ReliabilityCLI.describe(result))")
        #expect(ReliabilityCLI.count(summary, "stored") == ids.count, "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/crashtrail-escape"))
        let runner = try ReliabilityCLI.require()
        for id in ["../../../../tmp/crashtrail-escape", "/etc/passwd", "%2e%2e%2f"] {
            let shown = try runner.run(["show", id, "--store", store.path, "--format", "json"])
            #expect(shown.status == 0, "\(id): \(ReliabilityCLI.describe(shown))")
            let value = try JSONParser.parse(shown.stdout)
            #expect(value.objectValue?["id"] == .string(id))
        }
        let top = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(top.filter { !$0.hasPrefix("s.sqlite") } == ["in"], "\(top)")
    }

    @Test("Invalid UTF-8 and NUL bytes are refused or stored, never a crash, and every refusal is quarantined")
    func invalidUTF8AndNUL() throws {
        let folder = try TemporaryFolder("crashtrail-bytes")
        defer { folder.remove() }
        let cases: [(String, [UInt8])] = [
            (
                "invalid-utf8-in-string",
                Array(Self.report(id: "U1").utf8.dropLast(1)) + Array(#","device":""#.utf8) + [0xC3, 0x28, 0xFF] + Array(#""}"#.utf8)
            ),
            ("overlong-utf8", Array(Self.report(id: "U2", extra: #","device":"\#u{0}""#).utf8).map { $0 == 0 ? 0xC0 : $0 }),
            ("nul-in-string", Array(Self.report(id: "U3").utf8.dropLast(1)) + Array(#","device":"a"#.utf8) + [0] + Array(#"b"}"#.utf8)),
            ("escaped-nul-id", Array(Self.report(id: #"U4\u0000"#).utf8)),
            ("nul-bytes", [UInt8](repeating: 0, count: 4096)),
            ("nul-before-json", [0] + Array(Self.report(id: "U5").utf8)),
            ("utf16", Array(Self.report(id: "U6").utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })),
            ("bom", [0xEF, 0xBB, 0xBF] + Array(Self.report(id: "U7").utf8)),
            ("lone-surrogate-escape", Array(Self.report(id: #"U8\ud800"#).utf8)),
            ("ct1-with-nul", Array(Self.report(id: "U9", extra: #","trail":"ct1:AAAA\u0000""#).utf8)),
            (
                "trail-invalid-utf8",
                Array(Self.report(id: "U10", extra: #","trail":{"version":1,"app":{"bundleID":""#).utf8) + [0xFF] + Array(#""}}"#.utf8)
            ),
        ]
        for (name, bytes) in cases {
            let url = folder.url.appendingPathComponent("in/\(name).json")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        let store = folder.url.appendingPathComponent("s.sqlite")
        let quarantine = folder.url.appendingPathComponent("q")
        let (result, summary) = try ReliabilityCLI.ingest(
            [folder.url.appendingPathComponent("in").path], store: store, quarantine: quarantine, in: folder.url)
        #expect(result.status == 0, "\(ReliabilityCLI.describe(result))")
        let stored = ReliabilityCLI.count(summary, "stored")
        let rejected = ReliabilityCLI.count(summary, "rejected")
        #expect(stored + rejected == cases.count, "\(result.stdout)")
        let snapshot = try StoreSnapshot.read(store: store, quarantine: quarantine)
        #expect(snapshot.reports.count == stored)
        #expect(snapshot.quarantinedInputs.count == rejected)
        #expect(snapshot.integrity == ["ok"])
        // Every stored report can be listed as canonical JSON (no invalid text reached the store's output).
        let listed = try ReliabilityCLI.require().run(["list", "--reports", "--format", "json", "--store", store.path])
        #expect(listed.status == 0, "\(ReliabilityCLI.describe(listed))")
        #expect((try? JSONParser.parse(listed.stdoutBytes)) != nil, "list --reports printed JSON the strict parser refuses")
    }

    @Test("Special files: a FIFO in the input folder and /dev/zero are refused as unreadable, never read forever")
    func specialFiles() throws {
        let folder = try TemporaryFolder("crashtrail-special")
        defer { folder.remove() }
        try folder.write(Self.report(id: "plain"), to: "in/plain.json")
        let fifo = folder.url.appendingPathComponent("in/pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let job = try IngestProcess(
            runner: try ReliabilityCLI.require(), inputs: [folder.url.appendingPathComponent("in").path, "/dev/zero"],
            store: folder.url.appendingPathComponent("s.sqlite"), quarantine: folder.url.appendingPathComponent("q"),
            directory: folder.url)
        let deadline = Date().addingTimeInterval(20)
        while job.process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let hung = job.process.isRunning
        job.kill()
        #expect(!hung, "crashtrail ingest blocked on a special file")
        #expect(job.status == 0, "\(job.stderr.prefix(300))")
        #expect(job.stdout.contains(#""rejectedByReason":{"unreadable":2}"#), "\(job.stdout)")
        #expect(job.stdout.contains(#""stored":1"#), "\(job.stdout)")
    }

    @Test("Hostile NDJSON on standard input: deep, NUL, invalid UTF-8 and oversized lines are refused one by one")
    func standardInput() throws {
        let folder = try TemporaryFolder("crashtrail-stdin")
        defer { folder.remove() }
        var input: [UInt8] = []
        input += Array(#"{"event_id":"e1","issue_id":"i","custom_keys":[]}"#.utf8) + [0x0A]
        input += Array(("{\"event_id\":\"e2\",\"issue_id\":" + String(repeating: "[", count: 100_000)).utf8) + [0x0A]
        input += [0, 0, 0, 0x0A]
        input += Array(#"{"event_id":"e3","issue_id":"\#u{1}"#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8) + [0x0A]
        input +=
            Array(#"{"event_id":"e4","issue_id":"i","custom_keys":[],"pad":""#.utf8) + [UInt8](repeating: 0x61, count: 4_000)
            + Array(#""}"#.utf8) + [0x0A]
        input += [0x0A, 0x0A]
        let result = try ReliabilityCLI.require().run(
            [
                "ingest", "-", "--store", folder.url.appendingPathComponent("s.sqlite").path, "--quarantine",
                folder.url.appendingPathComponent("q").path, "--json", "--quiet", "--max-payload-size", "2000",
            ],
            stdin: input, directory: folder.url)
        #expect(result.status == 0, "\(ReliabilityCLI.describe(result))")
        let summary = (try? JSONParser.parse(result.stdout))?.objectValue ?? [:]
        #expect(ReliabilityCLI.count(summary, "stored") == 1, "\(result.stdout)")
        #expect(ReliabilityCLI.count(summary, "rejected") == 4, "\(result.stdout)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("q").path)) ?? []
        #expect(names.allSatisfy { !$0.contains("/") && !$0.hasPrefix(".") }, "\(names)")
    }
}
