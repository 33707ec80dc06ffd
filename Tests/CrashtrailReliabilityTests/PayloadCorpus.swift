import CrashtrailCore
import CrashtrailEncoding
import CrashtrailTestSupport
import Foundation

/// A small, seeded corpus of crash payloads for the ingest reliability tests: every format, embedded trails in
/// every form, exact duplicates, IDs reused with other bytes, and inputs that must be refused, spread over
/// three folders (`a`, `b`, `c`) so concurrent jobs can be given overlapping parts of it.
struct PayloadCorpus {
    /// How many payloads the store must hold after ingesting the whole corpus (distinct payload bytes).
    var distinctPayloads = 0
    /// How many inputs (files or NDJSON lines) must be refused.
    var refused = 0
    /// How many files were written.
    var files = 0
    /// The folders the files went into.
    var folders: [URL] = []

    /// Writes `count` input files under `root` (about 10% refused, 10% exact duplicates, 10% reused IDs).
    /// - Parameters:
    ///   - root: an empty folder.
    ///   - count: how many files.
    ///   - seed: the generator's seed; the same seed writes the same bytes.
    /// - Returns: what was written and what ingesting it must give.
    /// - Throws: when a file cannot be written or a trail cannot be encoded.
    static func write(to root: URL, count: Int, seed: UInt64) throws -> PayloadCorpus {
        var random = SplitMix64(seed: seed)
        var corpus = PayloadCorpus()
        corpus.folders = ["a", "b", "c"].map { root.appendingPathComponent($0) }
        for folder in corpus.folders { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let codec = TrailCodec()
        var seen: Set<[UInt8]> = []
        var previousReport: [UInt8]?
        for index in 0..<count {
            let folder = corpus.folders[index % 3]
            let trail = Self.trail(index: index, random: &random)
            let kind = index % 10
            var payloads: [[UInt8]] = []
            let bytes: [UInt8]
            let name: String
            switch kind {
            case 0, 6:
                let report = Self.crashtrailReport(id: "CT-\(index)", trail: try codec.encodeText(trail))
                payloads = [report]
                bytes = report
                name = "report-\(index).json"
                previousReport = report
            case 1:
                bytes = Self.sentryEvent(index: index, trailJSON: trail.canonicalJSONString)
                payloads = [bytes]
                name = "sentry-\(index).json"
            case 2:
                bytes = Self.sentryEnvelope(index: index, trail: try codec.encodeBinary(trail))
                payloads = [bytes]
                name = "envelope-\(index).envelope"
            case 3:
                bytes = Self.ips(index: index)
                payloads = [bytes]
                name = "crash-\(index).ips"
            case 4:
                bytes = Self.kscrash(index: index, trail: try codec.encodeText(trail))
                payloads = [bytes]
                name = "kscrash-\(index).json"
            case 5:
                let keys = try codec.encodeKeys(trail, limit: 60)
                let lines = [Self.crashlyticsLine(id: "CL-\(index)-0", keys: keys), Self.crashlyticsLine(id: "CL-\(index)-1", keys: [:])]
                payloads = lines
                bytes = Array(lines.joined(separator: [0x0A])) + [0x0A]
                name = "export-\(index).ndjson"
            case 7:
                // An exact copy of an earlier report under another name: a duplicate, never stored twice.
                bytes = try previousReport ?? Self.crashtrailReport(id: "CT-dup", trail: codec.encodeText(trail))
                payloads = [bytes]
                name = "copy-\(index).json"
            case 8:
                // The same ID as the earlier report with other bytes: kept under ID~hash.
                let text = String(decoding: previousReport ?? [], as: UTF8.self)
                let changed = text.replacingOccurrences(of: "\"device\":\"iPhone15,2\"", with: "\"device\":\"iPad\(index)\"")
                bytes = Array(changed.isEmpty ? Self.crashtrailReport(id: "CT-x", trail: "") : Array(changed.utf8))
                payloads = [bytes]
                name = "same-id-\(index).json"
            default:
                let report = Self.crashtrailReport(id: "CT-\(index)", trail: try codec.encodeText(trail))
                switch random.next() % 4 {
                case 0: bytes = Array(report.prefix(report.count / 2))
                case 1: bytes = Array("this is not a crash report\n".utf8)
                case 2: bytes = [0xFF, 0xFE, 0x00, 0x01] + report.prefix(20)
                default: bytes = Array(#"{"metadata":{},"crashDiagnostics":[]}"#.utf8)
                }
                corpus.refused += 1
                name = "broken-\(index).json"
            }
            for payload in payloads where seen.insert(payload).inserted { corpus.distinctPayloads += 1 }
            try Data(bytes).write(to: folder.appendingPathComponent(name))
            corpus.files += 1
        }
        return corpus
    }

    static func trail(index: Int, random: inout SplitMix64) -> Trail {
        let stepCount = Int(random.next() % 30)
        var t: Int64 = 0
        var steps: [Step] = []
        for step in 0..<stepCount {
            t += Int64(random.next() % 2000)
            switch random.next() % 4 {
            case 0: steps.append(Step(t: t, .push(Destination("item", ["id": .string("L-\(index)-\(step)")]))))
            case 1: steps.append(Step(t: t, .pop))
            case 2: steps.append(Step(t: t, .select(tab: Int64(random.next() % 3))))
            default: steps.append(Step(t: t, .open(.url("piratebay://item/L-\(step)"))))
            }
        }
        return Trail(
            app: Trail.AppInfo(bundleID: "com.example.reliability", version: "1.\(index % 4)", build: "\(index)"),
            session: Trail.Session(id: "S-\(index)", started: "2026-11-02T14:45:05Z", pid: Int64(1000 + index)), steps: steps)
    }

    static func crashtrailReport(id: String, trail: String) -> [UInt8] {
        Array(
            """
            {"crashtrail":1,"id":"\(id)","time":"2026-11-02T14:50:00Z","app":{"bundleID":"com.example.reliability","version":"1.0","build":"7"},"os":{"name":"iOS","version":"18.1"},"device":"iPhone15,2","exception":{"type":"EXC_BAD_ACCESS","signal":"SIGSEGV","reason":"boom"},"frames":[{"image":"Reliable","symbol":"Cart.total()","offset":128}],"trail":"\(trail)"}
            """.utf8)
    }

    static func hexID(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return String(repeating: "0", count: 32 - hex.count) + hex
    }

    static func sentryEvent(index: Int, trailJSON: String) -> [UInt8] {
        Array(
            """
            {"event_id":"\(hexID(index))","timestamp":"2026-11-02T14:50:00Z","exception":{"values":[{"type":"EXC_BAD_ACCESS","value":"boom \(index % 5)","stacktrace":{"frames":[{"function":"main","package":"/app/Reliable","instruction_addr":"0x10","image_addr":"0x0","in_app":true}]}}]},"contexts":{"app":{"app_identifier":"com.example.reliability"},"crashtrail":{"trail":\(trailJSON)}}}
            """.utf8)
    }

    static func sentryEnvelope(index: Int, trail: [UInt8]) -> [UInt8] {
        let event = #"{"event_id":"\#(hexID(index))","exception":{"values":[{"type":"E","value":"v"}]}}"#
        let head =
            #"{"event_id":"\#(hexID(index))"}"# + "\n" + #"{"type":"event","length":\#(event.utf8.count)}"# + "\n" + event + "\n"
            + #"{"type":"attachment","length":\#(trail.count),"filename":"crashtrail.ctr"}"# + "\n"
        return Array(head.utf8) + trail + [0x0A]
    }

    static func ips(index: Int) -> [UInt8] {
        let header =
            #"{"bug_type":"309","incident_id":"A1B2C3D4-0000-4000-8000-\#(String(hexID(index).suffix(12)))","app_version":"1.0","build_version":"7","bundleID":"com.example.reliability","os_version":"iPhone OS 18.1 (22B83)","timestamp":"2026-11-02 14:50:00.00 +0000","name":"Reliable"}"#
        let body = """
            {"procLaunch":"2026-11-02 14:45:05.0000 +0000","captureTime":"2026-11-02 14:50:00.0000 +0000","pid":\(1000 + index),"modelCode":"iPhone15,2","exception":{"type":"EXC_CRASH","signal":"SIGABRT"},"faultingThread":0,"threads":[{"triggered":true,"frames":[{"imageIndex":0,"imageOffset":4096,"symbol":"abort"}]}],"usedImages":[{"name":"libsystem_c.dylib","path":"/usr/lib/system/libsystem_c.dylib"}]}
            """
        return Array((header + "\n" + body).utf8)
    }

    static func kscrash(index: Int, trail: String) -> [UInt8] {
        Array(
            """
            {"report":{"id":"KS-\(index)","timestamp":1762094400},"system":{"CFBundleIdentifier":"com.example.reliability","CFBundleShortVersionString":"1.0","CFBundleVersion":"7","system_name":"iOS","system_version":"18.1","machine":"iPhone15,2","process_id":\(1000 + index)},"crash":{"error":{"type":"signal","signal":{"name":"SIGSEGV","signal":11}},"threads":[{"crashed":true,"backtrace":{"contents":[{"object_name":"Reliable","symbol_name":"main","instruction_addr":4096,"object_addr":0}]}}]},"user":{"crashtrail":"\(trail)"}}
            """.utf8)
    }

    static func crashlyticsLine(id: String, keys: [String: String]) -> [UInt8] {
        let items = keys.sorted { $0.key < $1.key }.map { #"{"key":"\#($0.key)","value":"\#($0.value)"}"# }.joined(separator: ",")
        return Array(
            #"{"event_id":"\#(id)","issue_id":"issue-1","bundle_identifier":"com.example.reliability","event_timestamp":"2026-11-02 14:50:00 UTC","application":{"display_version":"1.0","build_version":"7"},"custom_keys":[\#(items)],"threads":[{"crashed":true,"signal_name":"SIGSEGV","frames":[{"library":"Reliable","symbol":"main","offset":"16"}]}]}"#
                .utf8)
    }
}
