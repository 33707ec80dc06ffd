import CrashtrailCore
import CrashtrailEncoding
import CrashtrailTestSupport
import Foundation
import Testing

/// The large-scale limits, run by `Tools/reliability-scale.sh`.
///
/// They take minutes and gigabytes, so `swift test` skips them unless `RELIABILITY_SCALE` is set. Each prints
/// what it measured.
@Suite("Large-scale limits", .enabled(if: ProcessInfo.processInfo.environment["RELIABILITY_SCALE"] != nil), .serialized)
struct ScaleTests {
    static let steps = Int(ProcessInfo.processInfo.environment["RELIABILITY_STEPS"] ?? "") ?? 10_000_000

    @Test("A trail of 10,000,000 steps: encoded, then decoded or refused with a clear error, in bounded memory")
    func tenMillionSteps() throws {
        var steps: [Step] = []
        steps.reserveCapacity(Self.steps)
        for index in 0..<Self.steps {
            steps.append(Step(t: Int64(index / 4), index % 3 == 0 ? .push(Destination("item", ["id": .string("L-\(index % 7)")])) : .pop))
        }
        let trail = Trail(
            app: .init(bundleID: "com.example.big", version: "1", build: "1"),
            session: .init(id: "S", started: "2026-11-02T14:45:05Z", pid: 1), steps: steps)
        steps = []
        let codec = TrailCodec()
        let started = Date()
        let binary = try codec.encodeBinary(trail)
        let encodeSeconds = Date().timeIntervalSince(started)
        let baseline = ProcessMemory.resident ?? 0
        let decodeStarted = Date()
        var outcome: String
        do {
            let decoded = try codec.decode(binary)
            outcome = "decoded \(decoded.steps.count) steps"
            #expect(decoded.steps.count == Self.steps)
        } catch {
            outcome = "refused: \(error.code): \(error.message)"
            #expect(error.code == .declaredSizeOverCap || error.code == .inflatedSizeOverCap, "\(error)")
        }
        let decodeSeconds = Date().timeIntervalSince(decodeStarted)
        let peak = ProcessMemory.peakResident ?? 0
        print(
            "scale: \(Self.steps) steps -> \(binary.count) bytes binary, encode \(String(format: "%.1f", encodeSeconds)) s, decode \(String(format: "%.1f", decodeSeconds)) s, \(outcome); resident before decode \(baseline >> 20) MiB, peak \(peak >> 20) MiB"
        )
    }

    @Test("A 200 MB payload: crashtrail ingest refuses it by size (too-large) in bounded memory and the job goes on")
    func twoHundredMegabytePayload() throws {
        let folder = try TemporaryFolder("crashtrail-200mb")
        defer { folder.remove() }
        let inputs = folder.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        // A crashtrail report whose exception reason is 200 MB of text, and a small neighbour.
        let big = inputs.appendingPathComponent("big.json")
        try #require(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        handle.write(Data(#"{"crashtrail":1,"id":"big","time":"2026-11-02T14:50:00Z","exception":{"reason":""#.utf8))
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<200 { handle.write(chunk) }
        handle.write(Data(#""}}"#.utf8))
        try handle.close()
        try folder.write(#"{"crashtrail":1,"id":"small","time":"2026-11-02T14:50:00Z"}"#, to: "in/small.json")
        let runner = try ReliabilityCLI.require()
        let store = folder.url.appendingPathComponent("s.sqlite")
        let started = Date()
        let job = try IngestProcess(
            runner: runner, inputs: [inputs.path], store: store, quarantine: folder.url.appendingPathComponent("q"),
            directory: folder.url)
        // Sample the child's resident memory while it runs.
        var maxRSS = 0
        while job.process.isRunning {
            maxRSS = max(maxRSS, Self.residentKilobytes(of: job.process.processIdentifier))
            Thread.sleep(forTimeInterval: 0.05)
        }
        job.finish()
        let seconds = Date().timeIntervalSince(started)
        let result = (status: job.status, stdout: job.stdout, stderr: job.stderr)
        print(
            "scale: 200 MB payload -> status \(result.status) in \(String(format: "%.1f", seconds)) s, peak \(maxRSS >> 10) MiB: \(result.stdout)"
        )
        #expect(result.status == 0, "\(result.stderr.prefix(2000))")
        #expect(result.stdout.contains(#""inputs":2"#), "\(result.stdout)")
        // Refused by the 64 MiB default of --max-payload-size, quarantined by reference, the neighbour stored.
        #expect(result.stdout.contains(#""too-large":1"#), "\(result.stdout)")
        #expect(result.stdout.contains(#""stored":1"#), "\(result.stdout)")
        #expect(maxRSS < 256 << 10, "peak \(maxRSS >> 10) MiB for a refused 200 MB input")

        // With the limit raised past it, the payload is stored; memory is then a few times its size.
        let raised = try IngestProcess(
            runner: runner, inputs: [inputs.path], store: store, quarantine: folder.url.appendingPathComponent("q"),
            extra: ["--max-payload-size", String(256 << 20)], directory: folder.url)
        var raisedRSS = 0
        let raisedStarted = Date()
        while raised.process.isRunning {
            raisedRSS = max(raisedRSS, Self.residentKilobytes(of: raised.process.processIdentifier))
            Thread.sleep(forTimeInterval: 0.05)
        }
        raised.finish()
        print(
            "scale: 200 MB payload with --max-payload-size 256 MiB -> status \(raised.status) in \(String(format: "%.1f", Date().timeIntervalSince(raisedStarted))) s, peak \(raisedRSS >> 10) MiB: \(raised.stdout)"
        )
        #expect(raised.status == 0, "\(raised.stderr.prefix(2000))")
        #expect(raised.stdout.contains(#""stored":1"#), "\(raised.stdout)")
        #expect(raisedRSS < 2 << 20, "peak \(raisedRSS >> 10) MiB for a 200 MB payload")
    }

    /// A process's resident memory in KiB, from `/proc/PID/status`; 0 when it cannot be read.
    static func residentKilobytes(of pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        let line = text.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
    }
}
