import CrashtrailCore
import CrashtrailEncoding
import CrashtrailTestSupport
import Foundation

/// Builds crash cases and writes them as samples or as a benchmark corpus.
struct CorpusGenerator {
    let manifest: Manifest
    let codec: TrailCodec
    let seed: UInt64

    static let devices = ["iPhone14,2", "iPhone15,3", "iPhone16,1", "iPhone13,4", "iPad13,8"]
    static let osVersions = ["17.1.2", "17.4", "18.0", "18.1", "16.7.2"]
    static let versions: [(String, String)] = [("3.1.0", "412"), ("3.1.1", "418"), ("3.2.0", "431")]

    /// A crash case; `index` varies everything else, `kind` picks the crash.
    func crashCase(index: Int, kind: Int, random: inout SplitMix64, trailSteps: Int?) -> CrashCase {
        let (version, build) = Self.versions[index % Self.versions.count]
        // 2026-11-02T08:00:00Z plus a few minutes per crash.
        let crashTime: Int64 = 1_793_606_400_000 + Int64(index) * 187_000 + Int64.random(in: 0...60_000, using: &random)
        let launchTime = crashTime - Int64.random(in: 60_000...3_600_000, using: &random)
        let pid = Int64.random(in: 300...65_000, using: &random)
        var writer = PayloadWriter(codec: codec, random: SplitMix64(seed: random.next()))
        let id = writer.uuid()
        var trail: Trail?
        if let trailSteps {
            var maker = TrailMaker(manifest: manifest, seed: random.next())
            trail = maker.trail(
                steps: trailSteps, app: Trail.AppInfo(bundleID: "com.example.piratebay", version: version, build: build),
                sessionID: writer.uuid(), started: PayloadWriter.rfc3339(launchTime).replacingOccurrences(of: ".000Z", with: "Z"),
                pid: pid)
        }
        return CrashCase(
            id: id, version: version, build: build, osVersion: Self.osVersions[index % Self.osVersions.count],
            device: Self.devices[(index / 3) % Self.devices.count], crashTime: crashTime, launchTime: launchTime, pid: pid,
            kind: CrashKind.all[kind % CrashKind.all.count], slide: UInt64.random(in: 0..<0x4000, using: &random) * 0x4000,
            trail: trail)
    }

    /// The committed samples: every format, every way a trail rides, a joined `.ips`, one report without a trail
    /// and one malformed file.
    func writeSamples(to root: URL) throws {
        let reports = root.appendingPathComponent("reports")
        let trails = root.appendingPathComponent("trails")
        for folder in [reports, trails] {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        var random = SplitMix64(seed: seed)
        var writer = PayloadWriter(codec: codec, random: SplitMix64(seed: seed ^ 0xC0FFEE))
        func write(_ bytes: [UInt8], _ name: String, in folder: URL = reports) throws {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        var index = 0
        func next(kind: Int, steps: Int?) -> CrashCase {
            defer { index += 1 }
            return crashCase(index: index, kind: kind, random: &random, trailSteps: steps)
        }
        try write(try writer.crashtrailReport(next(kind: 0, steps: 24), embedding: .text), "crashtrail-ct1-text.json")
        try write(try writer.crashtrailReport(next(kind: 1, steps: 12), embedding: .object), "crashtrail-trail-object.json")
        try write(
            try writer.sentryEvent(next(kind: 2, steps: 30), embedding: .text, inExtra: false, breadcrumbs: 6),
            "sentry-event-contexts-ct1.json")
        try write(
            try writer.sentryEvent(next(kind: 3, steps: 16), embedding: .object, inExtra: true, breadcrumbs: 6),
            "sentry-event-extra-object.json")
        try write(try writer.sentryEnvelope(next(kind: 4, steps: 40), breadcrumbs: 6), "sentry-envelope-binary-attachment.envelope")
        try write(try writer.kscrash(next(kind: 0, steps: 20), embedding: .text, threads: 3), "kscrash-user-ct1.json")
        try write(try writer.kscrash(next(kind: 1, steps: 18), embedding: .keys, threads: 3), "kscrash-user-split-keys.json")
        let withKeys = try writer.crashlyticsLine(next(kind: 2, steps: 60), withTrail: true, breadcrumbs: 3)
        let withoutTrail = try writer.crashlyticsLine(next(kind: 3, steps: nil), withTrail: false, breadcrumbs: 3)
        try write(withKeys + [10] + withoutTrail + [10], "crashlytics-export.ndjson")
        let joined = next(kind: 4, steps: 25)
        try write(writer.ips(joined, threads: 3, images: 14), "ips-joined-by-pid.ips")
        if let trail = joined.trail { try write(try codec.encodeBinary(trail), "ips-joined-by-pid.ctr", in: trails) }
        try write(
            try writer.sentryEvent(next(kind: 0, steps: nil), embedding: .none, inExtra: false, breadcrumbs: 2),
            "sentry-event-no-trail.json")
        var broken = try writer.kscrash(next(kind: 2, steps: nil), embedding: .none, threads: 2)
        broken.removeLast(broken.count / 2)
        try write(broken, "malformed-truncated-kscrash.json")
    }

    /// `count` trails of 20 to 500 steps whose crashes never come, one file each in `root`, of distinct sessions: what
    /// waits for its crash (SPEC section 18), for the waiting-trail benchmark.
    func writeWaitingTrails(to root: URL, count: Int) throws -> String {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var random = SplitMix64(seed: seed)
        var bytes = 0
        for index in 0..<count {
            let crash = crashCase(index: index, kind: 0, random: &random, trailSteps: Int.random(in: 20...500, using: &random))
            guard let trail = crash.trail else { continue }
            let encoded = try codec.encodeBinary(trail)
            bytes += encoded.count
            try Data(encoded).write(to: root.appendingPathComponent(String(format: "%06d.ctr", index)))
        }
        return "\(count) waiting trails, \(bytes) bytes"
    }

    /// A mixed corpus of `count` reports in `root/reports` (folders of 1,000), with separate trails for some
    /// `.ips` crashes in `root/trails`.
    func writeCorpus(to root: URL, count: Int) throws -> String {
        let reports = root.appendingPathComponent("reports")
        let trails = root.appendingPathComponent("trails")
        try FileManager.default.createDirectory(at: trails, withIntermediateDirectories: true)
        var random = SplitMix64(seed: seed)
        var writer = PayloadWriter(codec: codec, random: SplitMix64(seed: seed ^ 0xBEEF))
        var bytesWritten = 0
        var perFormat: [String: Int] = [:]
        var crashlyticsLines: [UInt8] = []
        var crashlyticsInFile = 0
        var crashlyticsFiles = 0
        func folder(_ index: Int) throws -> URL {
            let url = reports.appendingPathComponent(String(format: "%04d", index / 1000))
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }
        for index in 0..<count {
            let steps = Int.random(in: 20...500, using: &random)
            let hasTrail = Int.random(in: 0..<10, using: &random) < 8
            let crash = crashCase(
                index: index, kind: Int.random(in: 0..<5, using: &random), random: &random, trailSteps: hasTrail ? steps : nil)
            let pick = index % 20
            let bytes: [UInt8]
            let name: String
            switch pick {
            case 0..<5:
                bytes = writer.ips(
                    crash, threads: Int.random(in: 8...30, using: &random), images: Int.random(in: 120...420, using: &random))
                name = "\(crash.id).ips"
                if let trail = crash.trail {
                    try Data(try codec.encodeBinary(trail)).write(to: trails.appendingPathComponent("\(crash.id).ctr"))
                }
                perFormat["ips", default: 0] += 1
            case 5..<8:
                bytes = try writer.sentryEvent(
                    crash, embedding: .text, inExtra: false, breadcrumbs: Int.random(in: 40...160, using: &random))
                name = "\(crash.id).json"
                perFormat["sentry-event", default: 0] += 1
            case 8..<10:
                bytes = try writer.sentryEnvelope(crash, breadcrumbs: Int.random(in: 40...160, using: &random))
                name = "\(crash.id).envelope"
                perFormat["sentry-envelope", default: 0] += 1
            case 10..<14:
                bytes = try writer.kscrash(crash, embedding: .text, threads: Int.random(in: 6...24, using: &random))
                name = "\(crash.id).json"
                perFormat["kscrash", default: 0] += 1
            case 14..<17:
                crashlyticsLines += try writer.crashlyticsLine(crash, withTrail: true, breadcrumbs: Int.random(in: 10...60, using: &random))
                crashlyticsLines.append(10)
                crashlyticsInFile += 1
                perFormat["crashlytics", default: 0] += 1
                if crashlyticsInFile == 100 || index == count - 1 {
                    try Data(crashlyticsLines).write(to: try folder(index).appendingPathComponent("crashlytics-\(crashlyticsFiles).ndjson"))
                    bytesWritten += crashlyticsLines.count
                    crashlyticsLines.removeAll(keepingCapacity: true)
                    crashlyticsInFile = 0
                    crashlyticsFiles += 1
                }
                continue
            default:
                bytes = try writer.crashtrailReport(crash, embedding: .text)
                name = "\(crash.id).json"
                perFormat["crashtrail", default: 0] += 1
            }
            try Data(bytes).write(to: try folder(index).appendingPathComponent(name))
            bytesWritten += bytes.count
        }
        if !crashlyticsLines.isEmpty {
            try Data(crashlyticsLines).write(to: try folder(count - 1).appendingPathComponent("crashlytics-\(crashlyticsFiles).ndjson"))
            bytesWritten += crashlyticsLines.count
        }
        let formats = perFormat.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "reports \(count), bytes \(bytesWritten), \(formats)"
    }
}
