import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// The limits seen from the command line: each a clear `Error: …` line and the documented exit status.
@Suite("Limits at the command line")
struct LimitExitStatusTests {
    @Test("trail decode refuses a deflate bomb and 100,000-deep JSON with exit 1 and the reason")
    func trailDecode() throws {
        let runner = try ReliabilityCLI.require()
        let folder = try TemporaryFolder("crashtrail-limit-cli")
        defer { folder.remove() }
        let bomb = folder.url.appendingPathComponent("bomb.ctr")
        try Data(DeflateBomb.binaryTrail(declaredLength: 100, inflatedSize: 64 << 20)).write(to: bomb)
        let deep = try folder.write("{\"steps\":" + String(repeating: "[", count: 100_000) + "}", to: "deep.json")
        for (file, expected) in [(bomb, "cap"), (deep, "deeper than 512")] {
            let result = try runner.run(["trail", "decode", file.path])
            #expect(result.status == 1, "\(file.lastPathComponent): \(ReliabilityCLI.describe(result))")
            #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr.prefix(300))")
            #expect(result.stderr.contains(expected), "\(result.stderr.prefix(300))")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("ingest keeps a crash whose embedded trail is a bomb, refuses a bomb trail file, and exits 0 (2 with --strict)")
    func ingestWithBombs() throws {
        let folder = try TemporaryFolder("crashtrail-limit-ingest")
        defer { folder.remove() }
        let bomb = DeflateBomb.binaryTrail(declaredLength: 100, inflatedSize: 64 << 20)
        let text =
            "ct1:"
            + Data(bomb).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        try folder.write(#"{"crashtrail":1,"id":"bombed","time":"2026-11-02T14:50:00Z","trail":"\#(text)"}"#, to: "in/report.json")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("trails"), withIntermediateDirectories: true)
        try Data(bomb).write(to: folder.url.appendingPathComponent("trails/bomb.ctr"))
        let store = folder.url.appendingPathComponent("s.sqlite")
        let quarantine = folder.url.appendingPathComponent("q")
        let arguments = [folder.url.appendingPathComponent("in").path, "--trails", folder.url.appendingPathComponent("trails").path]
        let (result, summary) = try ReliabilityCLI.ingest(arguments, store: store, quarantine: quarantine, in: folder.url)
        #expect(result.status == 0, "\(ReliabilityCLI.describe(result))")
        #expect(ReliabilityCLI.count(summary, "stored") == 1, "\(result.stdout)")
        #expect(summary["trails"]?.objectValue?["undecodable"] == .int(1), "\(result.stdout)")
        #expect(summary["rejectedByReason"]?.objectValue?["undecodable-trail"] == .int(1), "\(result.stdout)")
        let shown = try ReliabilityCLI.require().run(["show", "bombed", "--store", store.path, "--format", "json"])
        let trailInfo = try JSONParser.parse(shown.stdout).objectValue?["trailInfo"]?.objectValue
        #expect(trailInfo?["source"] == .string("undecodable"))
        #expect(trailInfo?["error"]?.stringValue?.contains("cap") == true, "\(shown.stdout)")
        // The same refusal with --strict is exit status 2.
        let strict = try ReliabilityCLI.ingest(arguments + ["--strict"], store: store, quarantine: quarantine, in: folder.url)
        #expect(strict.result.status == 2, "\(ReliabilityCLI.describe(strict.result))")
    }

    @Test("--max-payload-size refuses a larger input as too-large without copying it, and the job goes on")
    func payloadSizeLimit() throws {
        let folder = try TemporaryFolder("crashtrail-limit-size")
        defer { folder.remove() }
        let reason = String(repeating: "x", count: 5_000)
        try folder.write(
            #"{"crashtrail":1,"id":"big","time":"2026-11-02T14:50:00Z","exception":{"reason":"\#(reason)"}}"#, to: "in/big.json")
        try folder.write(#"{"crashtrail":1,"id":"small","time":"2026-11-02T14:50:00Z"}"#, to: "in/small.json")
        let quarantine = folder.url.appendingPathComponent("q")
        let (result, summary) = try ReliabilityCLI.ingest(
            [folder.url.appendingPathComponent("in").path], store: folder.url.appendingPathComponent("s.sqlite"),
            quarantine: quarantine, in: folder.url, extra: ["--max-payload-size", "1000"])
        #expect(result.status == 0, "\(ReliabilityCLI.describe(result))")
        #expect(ReliabilityCLI.count(summary, "stored") == 1)
        #expect(summary["rejectedByReason"]?.objectValue?["too-large"] == .int(1), "\(result.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: quarantine.path)
        #expect(names.count == 1 && names.allSatisfy { $0.hasSuffix(".reason.txt") }, "\(names)")
        let bad = try ReliabilityCLI.require().run(["ingest", "in", "--max-payload-size", "0"], directory: folder.url)
        #expect(bad.status == 64, "\(ReliabilityCLI.describe(bad))")
    }
}
