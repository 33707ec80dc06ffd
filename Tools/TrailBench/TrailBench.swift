import CrashtrailCore
import CrashtrailEncoding
import CrashtrailTestSupport
import Foundation

/// `crashtrail-trail-bench`: crashtrail's trail encoding against general-purpose compressors.
///
/// It measures, in one run and on the same generated trails, the bytes per step of
/// crashtrail's binary form against `gzip -9`, `xz -9e`, `zstd -19` and `zstd -19 -D dict` (a dictionary
/// trained by `zstd --train` on a separate set from the same generator), and crashtrail's encode and decode
/// throughput. Prints a markdown table of medians; throughput is per CPU second of the measuring thread.
///
///     swift run -c release crashtrail-trail-bench [--trails N] [--train N] [--seed S] [--lengths 20,100,500] [--manifest M]…
///
/// `--decode FOLDER [--passes N]` instead decodes every file in FOLDER (a corpus's `.ctr` trails) N times (3 by
/// default) with `decodeKeepingJSON`, as ingest does, and prints the CPU time per trail: a steady workload for
/// `perf stat` and `perf record` on the decoder alone.
@main
struct TrailBench {
    struct Options {
        var trails = 60
        var training = 300
        var seed: UInt64 = 2026
        var lengths = [20, 100, 500]
        var manifests: [String] = []
        var decodeFolder: String?
        var passes = 3
        /// Where to write every measured trail's JSON, to look at or decode with other tools.
        var dumpFolder: String?
    }

    static func main() {
        do {
            try run(try parse(Array(CommandLine.arguments.dropFirst())))
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            exit(1)
        }
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var index = 0
        func value() throws -> String {
            index += 1
            guard index < arguments.count else { throw BenchError("\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--trails": options.trails = Int(try value()) ?? options.trails
            case "--train": options.training = Int(try value()) ?? options.training
            case "--seed": options.seed = UInt64(try value()) ?? options.seed
            case "--lengths": options.lengths = try value().split(separator: ",").compactMap { Int($0) }
            case "--manifest": options.manifests.append(try value())
            case "--decode": options.decodeFolder = try value()
            case "--passes": options.passes = Int(try value()) ?? options.passes
            case "--dump": options.dumpFolder = try value()
            case "-h", "--help":
                print(
                    "usage: crashtrail-trail-bench [--trails N] [--train N] [--seed S] [--lengths 20,100,500] [--manifest M]… [--dump FOLDER]"
                )
                print("       crashtrail-trail-bench --decode FOLDER [--passes N] [--manifest M]…")
                exit(0)
            default: throw BenchError("unknown argument \(arguments[index])")
            }
            index += 1
        }
        if options.manifests.isEmpty {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            options.manifests = [
                root.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml").path,
                root.appendingPathComponent("Samples/Harbor/harbor.yml").path,
            ]
        }
        return options
    }

    struct Row {
        var app: String
        var steps: Int
        var json: Double
        var crashtrail: Double
        var gzip: Double
        var xz: Double
        var zstd: Double
        var zstdDictionary: Double
        var textCharacters: Int
        var encodeMBps: Double
        var encodeTrailsPerSecond: Double
        var decodeMBps: Double
        var decodeTrailsPerSecond: Double
    }

    static func run(_ options: Options) throws {
        if let folder = options.decodeFolder {
            try decodeFolder(folder, options: options)
            return
        }
        let manifests = try options.manifests.map { path in try Manifest(contentsOfFile: path) }
        let codec = TrailCodec(manifests: manifests)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("crashtrail-trail-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var rows: [Row] = []
        for (manifestIndex, manifest) in manifests.enumerated() {
            let dictionary = try trainZstdDictionary(for: manifest, options: options, manifestIndex: manifestIndex, scratch: scratch)
            let compressors = [
                ExternalCompressor(label: "gzip -9", executable: "gzip", arguments: ["-9", "-c"]),
                ExternalCompressor(label: "xz -9e", executable: "xz", arguments: ["-9e", "-c"]),
                ExternalCompressor(label: "zstd -19", executable: "zstd", arguments: ["-19", "-q", "-c"]),
                ExternalCompressor(label: "zstd -19 -D dict", executable: "zstd", arguments: ["-19", "-q", "-c", "-D", dictionary.path]),
            ]
            for (lengthIndex, length) in options.lengths.enumerated() {
                // The measured set uses other seeds than the training set.
                var generator = RealisticTrailGenerator(
                    manifest: manifest, seed: options.seed &+ 1_000 &* UInt64(manifestIndex + 1) &+ UInt64(lengthIndex + 1))
                let trails = (0..<options.trails).map { _ in generator.trail(steps: length) }
                let jsons = trails.map(\.canonicalJSON)
                if let folder = options.dumpFolder {
                    let url = URL(fileURLWithPath: folder).appendingPathComponent("\(manifest.app)-\(length)")
                    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                    for (index, json) in jsons.enumerated() {
                        try Data(json).write(to: url.appendingPathComponent(String(format: "%03d.json", index)))
                    }
                }
                var perStep: [[Double]] = Array(repeating: [], count: 6)
                var texts: [Int] = []
                for (trail, json) in zip(trails, jsons) {
                    let binary = try codec.encodeBinary(trail)
                    guard try codec.decode(binary).canonicalJSON == json else {
                        throw BenchError("round trip failed for a \(length)-step \(manifest.app) trail")
                    }
                    texts.append(try codec.encode(trail, as: .text).count)
                    let steps = Double(trail.steps.count)
                    perStep[0].append(Double(json.count) / steps)
                    perStep[1].append(Double(binary.count) / steps)
                    for (index, compressor) in compressors.enumerated() {
                        perStep[index + 2].append(Double(try compressor.compressedSize(of: json)) / steps)
                    }
                }
                let binaries = try trails.map { try codec.encodeBinary($0) }
                let jsonBytes = Double(jsons.reduce(0) { $0 + $1.count })
                let encodeSeconds = try timed(trails.count) { for trail in trails { _ = try codec.encodeBinary(trail) } }
                let decodeSeconds = try timed(trails.count) { for binary in binaries { _ = try codec.decodeBinary(binary) } }
                rows.append(
                    Row(
                        app: manifest.app, steps: length, json: median(perStep[0]), crashtrail: median(perStep[1]),
                        gzip: median(perStep[2]), xz: median(perStep[3]), zstd: median(perStep[4]),
                        zstdDictionary: median(perStep[5]), textCharacters: Int(median(texts.map(Double.init))),
                        encodeMBps: jsonBytes / encodeSeconds / 1e6, encodeTrailsPerSecond: Double(trails.count) / encodeSeconds,
                        decodeMBps: jsonBytes / decodeSeconds / 1e6, decodeTrailsPerSecond: Double(trails.count) / decodeSeconds))
                FileHandle.standardError.write(Data("measured \(manifest.app), \(length) steps\n".utf8))
            }
        }
        printTable(rows, options: options)
    }

    /// Decodes every file in `folder` `options.passes` times and prints the CPU time per trail.
    static func decodeFolder(_ folder: String, options: Options) throws {
        let codec = TrailCodec(manifests: try options.manifests.map { path in try Manifest(contentsOfFile: path) })
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let inputs = try names.map { name in
            Array(try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name)))
        }
        var steps = 0
        var jsonBytes = 0
        let start = threadCPUSeconds()
        for _ in 0..<max(1, options.passes) {
            steps = 0
            jsonBytes = 0
            for input in inputs {
                let decoded = try codec.decodeKeepingJSON(input)
                steps += decoded.trail.steps.count
                jsonBytes += decoded.canonicalJSON.count
            }
        }
        let seconds = (threadCPUSeconds() - start) / Double(max(1, options.passes))
        print(
            "\(inputs.count) trails, \(steps) steps, \(jsonBytes) JSON bytes: \(format(seconds * 1e6 / Double(max(1, inputs.count)), 1)) µs per trail, \(format(Double(jsonBytes) / seconds / 1e6, 1)) MB/s of JSON"
        )
    }

    /// Trains a zstd dictionary on `options.training` trails from other seeds, of all the measured lengths.
    static func trainZstdDictionary(for manifest: Manifest, options: Options, manifestIndex: Int, scratch: URL) throws -> URL {
        let folder = scratch.appendingPathComponent("train-\(manifestIndex)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = RealisticTrailGenerator(manifest: manifest, seed: options.seed &+ 77_777 &* UInt64(manifestIndex + 1))
        var paths: [String] = []
        for index in 0..<options.training {
            let length = options.lengths[index % options.lengths.count]
            let file = folder.appendingPathComponent("\(index).json")
            try Data(generator.trail(steps: length).canonicalJSON).write(to: file)
            paths.append(file.path)
        }
        let dictionary = scratch.appendingPathComponent("dict-\(manifestIndex)")
        _ = try ExternalCompressor.run("zstd", ["--train", "-q"] + paths + ["-o", dictionary.path])
        return dictionary
    }

    /// CPU seconds this thread spends per pass of `body`.
    ///
    /// Repeated until at least half a CPU second has passed. Thread CPU time rather than wall time, so other processes on a busy machine do not count.
    static func timed(_ count: Int, _ body: () throws -> Void) throws -> Double {
        try body()  // warm up
        var passes = 0
        let start = threadCPUSeconds()
        var elapsed = 0.0
        while elapsed < 0.5 {
            try body()
            passes += 1
            elapsed = threadCPUSeconds() - start
        }
        return elapsed / Double(passes)
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func format(_ value: Double, _ places: Int = 2) -> String {
        String(format: "%.\(places)f", value)
    }

    static func printTable(_ rows: [Row], options: Options) {
        print(
            "Medians over \(options.trails) generated trails per row (seed \(options.seed)); zstd dictionary trained on \(options.training) other trails per app."
        )
        print("Sizes in bytes per step (whole encoded trail / steps); ratio = crashtrail / zstd -19 -D dict (target at most 0.80).")
        print("")
        print(
            "| app | steps | JSON | crashtrail | gzip -9 | xz -9e | zstd -19 | zstd -19 -D dict | ratio | ct1: chars | encode MB/s | encode trails/s | decode MB/s | decode trails/s |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for row in rows {
            let ratio = row.crashtrail / row.zstdDictionary
            print(
                "| \(row.app) | \(row.steps) | \(format(row.json, 1)) | \(format(row.crashtrail)) | \(format(row.gzip)) | \(format(row.xz)) | \(format(row.zstd)) | \(format(row.zstdDictionary)) | \(format(ratio)) | \(row.textCharacters) | \(format(row.encodeMBps, 1)) | \(format(row.encodeTrailsPerSecond, 0)) | \(format(row.decodeMBps, 1)) | \(format(row.decodeTrailsPerSecond, 0)) |"
            )
        }
    }
}
