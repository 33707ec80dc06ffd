import CMallocCount
import CrashtrailCore
import CrashtrailRecording
import CrashtrailTestSupport
import Foundation

/// crashtrail-record-bench: the cost of recording one step on the calling thread, durable, with the journal and one
/// sink on, against the simplest alternative an app would write (each step appended as a JSON line with
/// `FileHandle` and `synchronize()`), in one run over the same realistic trail (docs/RECORDING.md, BENCHMARKS.md).
///
///   swift build -c release --product crashtrail-record-bench
///   .build/release/crashtrail-record-bench [--steps 100000] [--long 1000000] [--fsync-steps 2000] [--seed 2026]
@main
@MainActor
struct RecordBench {
    static func main() throws {
        var options = ["--steps": 100_000, "--long": 1_000_000, "--fsync-steps": 2_000, "--seed": 2026]
        var arguments = Array(CommandLine.arguments.dropFirst())
        while let name = arguments.first {
            guard options[name] != nil, arguments.count >= 2, let value = Int(arguments[1]), value > 0 else {
                FileHandle.standardError.write(
                    Data("usage: crashtrail-record-bench [--steps N] [--long N] [--fsync-steps N] [--seed N]\n".utf8))
                exit(64)
            }
            options[name] = value
            arguments.removeFirst(2)
        }
        let steps = (options["--steps"] ?? 0)
        let manifestURL = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml")
        let manifest = try Manifest(contentsOf: manifestURL)
        var generator = RealisticTrailGenerator(manifest: manifest, seed: UInt64((options["--seed"] ?? 0)))
        let trail = generator.trail(steps: steps)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crashtrail-record-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        print(
            "Recording \(steps) steps of a realistic PirateBay trail (seed \((options["--seed"] ?? 0))), release build, one step at a time on the calling thread"
        )
        print("")
        print("| how | steps | median µs | p99 µs | max µs | allocations / step (calling thread) | file bytes at the end |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        var rows: [Row] = []
        rows.append(try crashtrail(trail, manifest: manifest, folder: folder, synchronizing: false, count: steps))
        rows.append(try jsonLines(trail, folder: folder, synchronizing: false, count: steps))
        let fsyncSteps = min(steps, (options["--fsync-steps"] ?? 0))
        rows.append(try crashtrail(trail, manifest: manifest, folder: folder, synchronizing: true, count: fsyncSteps))
        rows.append(try jsonLines(trail, folder: folder, synchronizing: true, count: fsyncSteps))
        for row in rows { print(row.markdown) }
        print("")
        print(
            "Ratio of medians, JSON lines + synchronize() over crashtrail (journal + sink, no fsync): \(String(format: "%.0fx", rows[3].median / rows[0].median))"
        )
        print("")
        try long(trail, manifest: manifest, folder: folder, count: (options["--long"] ?? 0))
    }

    struct Row {
        var name: String
        var count: Int
        var median: Double
        var p99: Double
        var maximum: Double
        var allocations: Double?
        var fileBytes: Int

        var markdown: String {
            let allocationText = allocations.map { String(format: "%.1f", $0) } ?? "n/a"
            return
                "| \(name) | \(count) | \(String(format: "%.1f", median)) | \(String(format: "%.1f", p99)) | \(String(format: "%.0f", maximum)) | \(allocationText) | \(fileBytes) |"
        }

        init(name: String, microseconds: [Double], allocations: UInt64, fileBytes: Int) {
            let sorted = microseconds.sorted()
            self.name = name
            count = sorted.count
            median = sorted[sorted.count / 2]
            p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
            maximum = sorted.last ?? 0
            self.allocations = crashtrail_counts_allocations() != 0 ? Double(allocations) / Double(sorted.count) : nil
            self.fileBytes = fileBytes
        }
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func size(of url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }

    static let session = Trail.Session(id: "BE4C0000-0000-4000-8000-000000000001", started: "2026-11-24T06:00:00.000Z", pid: 1)

    /// The recorder with its journal and one `ct1:` text sink (as for KSCrash or a Sentry context).
    static func crashtrail(_ trail: Trail, manifest: Manifest, folder: URL, synchronizing: Bool, count: Int) throws -> Row {
        let url = folder.appendingPathComponent("bench-\(synchronizing).ctj")
        let recorder = TrailRecorder(manifest: manifest, state: trail.base, app: trail.app, session: session)
        try recorder.startJournal(at: url, synchronizingToDisk: synchronizing)
        let delivered = Counter()
        recorder.addSink(.text { text in delivered.add(text.utf8.count) })
        var times: [Double] = []
        times.reserveCapacity(count)
        let allocationsBefore = crashtrail_thread_allocations()
        for step in trail.steps.prefix(count) {
            let start = now()
            try recorder.record(step)
            times.append(Double(now() - start) / 1_000)
        }
        let allocations = crashtrail_thread_allocations() - allocationsBefore
        recorder.waitForSinks()
        precondition(recorder.journalFailure == nil, "the journal failed: \(String(describing: recorder.journalFailure))")
        let recovered = try TrailJournal.recover(at: url).trail
        precondition(recovered == recorder.trail(stampingFinal: true), "the journal does not recover the trail")
        let name = synchronizing ? "crashtrail: journal + text sink, fsync each step" : "crashtrail: journal + text sink"
        return Row(name: name, microseconds: times, allocations: allocations, fileBytes: size(of: url))
    }

    /// What an app would write by hand: each step's JSON appended as a line, with `synchronize()` (fsync) or without.
    static func jsonLines(_ trail: Trail, folder: URL, synchronizing: Bool, count: Int) throws -> Row {
        let url = folder.appendingPathComponent("bench-\(synchronizing).ndjson")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var times: [Double] = []
        times.reserveCapacity(count)
        let allocationsBefore = crashtrail_thread_allocations()
        for step in trail.steps.prefix(count) {
            let start = now()
            try handle.write(contentsOf: Data(CanonicalJSON.bytes(of: step.jsonValue) + [0x0A]))
            if synchronizing { try handle.synchronize() }
            times.append(Double(now() - start) / 1_000)
        }
        let allocations = crashtrail_thread_allocations() - allocationsBefore
        let name = synchronizing ? "JSON line with FileHandle + synchronize()" : "JSON line with FileHandle, no synchronize()"
        return Row(name: name, microseconds: times, allocations: allocations, fileBytes: size(of: url))
    }

    /// Resident memory in bytes, from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    /// `count` steps (the trail's steps again and again, later each time): the journal and memory stay bounded.
    static func long(_ trail: Trail, manifest: Manifest, folder: URL, count: Int) throws {
        let url = folder.appendingPathComponent("long.ctj")
        let recorder = TrailRecorder(manifest: manifest, state: trail.base, app: trail.app, session: session)
        try recorder.startJournal(at: url)
        recorder.addSink(.text { _ in })
        let span = (trail.steps.last?.t ?? 0) + 1_000
        var largestJournal = 0
        var samples: [(Int, Int, Int)] = []
        var recorded = 0
        var round: Int64 = 0
        let started = now()
        while recorded < count {
            for step in trail.steps where recorded < count {
                try recorder.record(Step(t: step.t + round * span, step.op))
                recorded += 1
                if recorded % 1_000 == 0 { largestJournal = max(largestJournal, size(of: url)) }
                if recorded % (count / 10) == 0 { samples.append((recorded, residentBytes(), size(of: url))) }
            }
            round += 1
        }
        let seconds = Double(now() - started) / 1e9
        recorder.waitForSinks()
        print(
            "\(count) steps recorded in \(String(format: "%.1f", seconds)) s with the journal and a text sink; resident memory and journal size as it went:"
        )
        print("")
        print("| steps | resident MiB | journal bytes |")
        print("|---:|---:|---:|")
        for (steps, resident, journal) in samples {
            print("| \(steps) | \(String(format: "%.1f", Double(resident) / 1_048_576)) | \(journal) |")
        }
        print("")
        print(
            "Largest journal seen (sampled every 1,000 steps): \(largestJournal) bytes; the trail keeps \(recorder.keptStepCount) steps (limits: \(recorder.limits.maximumSteps) steps, \(recorder.limits.maximumBytes) bytes)."
        )
    }
}

/// Bytes a sink was handed, from the sink's queue.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    func add(_ value: Int) { lock.withLock { total += value } }
}
