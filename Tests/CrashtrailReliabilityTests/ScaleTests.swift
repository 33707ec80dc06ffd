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

    @Test(
        "A trail of RELIABILITY_STEPS steps (10,000,000 by default): refused by the default limits, decoded within the memory bound when they fit"
    )
    func longTrail() throws {
        let outcome = try LargeTrailDecode.run(steps: Self.steps)
        print(
            "scale: \(Self.steps) steps -> \(outcome.encodedBytes) bytes binary; default limits: \(outcome.refusal.code); raised limits: decoded \(outcome.decodedSteps) steps in \(String(format: "%.1f", outcome.seconds)) s, resident set +\(outcome.decodePeakGrowth >> 20) MiB (bound \(outcome.bound >> 20) MiB)"
        )
        LargeTrailDecode.check(outcome, steps: Self.steps)
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
        // A refusal can end before the first sample: the largest waited-for child's peak is an upper bound for it.
        maxRSS = max(maxRSS, Self.largestChildPeakKilobytes())
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
        #expect(maxRSS > 0, "the job's peak resident set was not measured")
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
        raisedRSS = max(raisedRSS, Self.largestChildPeakKilobytes())
        print(
            "scale: 200 MB payload with --max-payload-size 256 MiB -> status \(raised.status) in \(String(format: "%.1f", Date().timeIntervalSince(raisedStarted))) s, peak \(raisedRSS >> 10) MiB: \(raised.stdout)"
        )
        #expect(raised.status == 0, "\(raised.stderr.prefix(2000))")
        #expect(raised.stdout.contains(#""stored":1"#), "\(raised.stdout)")
        #expect(raisedRSS < 2 << 20, "peak \(raisedRSS >> 10) MiB for a 200 MB payload")
    }

    /// The peak resident set of the largest child this process has waited for, in KiB (`getrusage`); it bounds the
    /// peak of the last child from above.
    static func largestChildPeakKilobytes() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        guard getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage) == 0 else { return 0 }
        return usage.ru_maxrss
        #else
        // Darwin reports bytes.
        guard getrusage(RUSAGE_CHILDREN, &usage) == 0 else { return 0 }
        return usage.ru_maxrss >> 10
        #endif
    }

    /// A process's resident memory in KiB, from `/proc/PID/status`; 0 when it cannot be read.
    static func residentKilobytes(of pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        let line = text.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
    }
}
