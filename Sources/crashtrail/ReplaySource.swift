import CrashtrailCollector
import CrashtrailCore
import CrashtrailEncoding
import Foundation

/// Where `replay` finds its trail: a trail file (JSON, `ct1:` text, split keys or binary), a crash payload
/// file of any supported format, or a report in the store.
struct ReplaySource {
    /// How the output names the report: the stored ID, or the file given.
    let name: String
    let trail: Trail
    /// The dictionary ID of the manifest the trail was encoded with, when it rode encoded (binary, `ct1:` text or
    /// split keys) and named one; nil for trail JSON or a trail encoded without a manifest.
    var recordedDictionaryID: String? = nil

    /// Why REPORT gave no trail: a code, and a message that says what to do.
    struct Failure: Error, CustomStringConvertible {
        /// What kind of problem it was.
        struct Code: Hashable, CustomStringConvertible {
            let name: String
            var description: String { name }

            /// REPORT is a folder, or a file that cannot be read.
            static let unreadable = Code(name: "unreadable")
            /// REPORT is no file, and there is no store to look it up in.
            static let notFound = Code(name: "not-found")
            /// The file is neither a trail nor a crash payload crashtrail reads.
            static let unrecognized = Code(name: "unrecognized")
            /// The file holds several crash payloads.
            static let severalPayloads = Code(name: "several-payloads")
            /// The report carries no trail, or one that cannot be decoded.
            static let noTrail = Code(name: "no-trail")
            /// The trail is not valid (SPEC section 5).
            static let invalidTrail = Code(name: "invalid-trail")
        }

        let code: Code
        let message: String
        var description: String { message }

        init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Resolves REPORT: an existing file is read as a trail or a payload; anything else is a stored report ID
    /// (or a unique prefix of one) in the store at `storePath`.
    /// - Throws: `Failure` saying why there is no trail, or a `StoreError`.
    static func resolve(_ report: String, manifests: [Manifest], storePath: String) throws -> ReplaySource {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: report, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else {
                throw Failure(.unreadable, "\(report) is a folder; pass one trail file, crash payload file or stored report ID")
            }
            guard let data = FileManager.default.contents(atPath: report) else {
                throw Failure(.unreadable, "cannot read \(report); check its permissions")
            }
            return try fromFile(Array(data), path: report, codec: TrailCodec(manifests: manifests))
        }
        guard StoreOptions.mayExist(storePath) else {
            throw Failure(
                .notFound,
                "\(report) is not a file, and there is no crash store at \(storePath) to look it up as a report ID; pass a trail or payload file, or --store with the store `crashtrail ingest` filled"
            )
        }
        let store = try StoreOptions.open(storePath, creating: false)
        let record = try store.record(matchingPrefix: report)
        guard let json = record.trail else {
            let why = record.trailError.map { ": \($0)" } ?? ""
            throw Failure(
                .noTrail,
                "report \(record.id) has no trail to replay (trail \(record.trailSource)\(why)); re-run crashtrail ingest with --trails DIR when its trail file arrives"
            )
        }
        do {
            let payload = try? record.rawPayload()
            return ReplaySource(
                name: record.id, trail: try Trail(json: Array(json.utf8)),
                recordedDictionaryID: payload.flatMap { recordedDictionary(ofPayload: $0, format: ReportFormat(rawValue: record.format)) })
        } catch {
            throw Failure(.invalidTrail, "report \(record.id): its stored trail is not valid: \(error)")
        }
    }

    /// A trail file, or a crash payload that carries one.
    private static func fromFile(_ bytes: [UInt8], path: String, codec: TrailCodec) throws -> ReplaySource {
        let trailError: TrailCodecError
        do {
            let trail = try codec.decode(bytes)
            return ReplaySource(name: path, trail: trail, recordedDictionaryID: TrailCodec.recordedDictionaryID(bytes))
        } catch {
            // A trail file's own problem is the answer; otherwise it may be a crash payload.
            if looksLikeTrail(bytes) { throw Failure(.invalidTrail, "\(path): not a valid trail: \(error)") }
            trailError = error
        }
        let outcomes = bytes.withUnsafeBufferPointer { buffer in
            PayloadProcessor(decoder: codec).process(buffer, source: path).outcomes
        }
        var records: [ReportRecord] = []
        var rejections: [RejectionError] = []
        // Only stored rows and rejections matter here; other outcomes the collector may add are neither.
        for outcome in outcomes {
            if case .record(let record) = outcome { records.append(record) }
            if case .rejected(let error, _, _) = outcome { rejections.append(error) }
        }
        guard let record = records.first else {
            guard let rejection = rejections.first, rejection.code != .unrecognizedFormat else {
                let payloadWhy = rejections.first.map { "\($0)" } ?? "no payload found"
                throw Failure(.unrecognized, "\(path) is neither a trail (\(trailError)) nor a crash payload (\(payloadWhy))")
            }
            throw Failure(.unrecognized, "\(path) is a crash payload crashtrail cannot read: \(rejection)")
        }
        guard records.count == 1 else {
            let ids = records.prefix(5).map(\.id).joined(separator: ", ")
            throw Failure(
                .severalPayloads,
                "\(path) holds \(records.count) crash payloads (\(ids)\(records.count > 5 ? ", …" : "")); ingest it with crashtrail ingest and replay one stored report ID"
            )
        }
        guard let json = record.trail else {
            let why = record.trailError.map { ": \($0)" } ?? ""
            let hint =
                record.trailSource == "missing" && record.format == "ips"
                ? "; an .ips report's trail rides in a separate file: ingest both with crashtrail ingest --trails DIR and replay the stored report"
                : ""
            throw Failure(.noTrail, "the crash payload \(path) carries no usable trail (trail \(record.trailSource)\(why))\(hint)")
        }
        do {
            return ReplaySource(
                name: path, trail: try Trail(json: Array(json.utf8)),
                recordedDictionaryID: recordedDictionary(ofPayload: bytes, format: ReportFormat(rawValue: record.format)))
        } catch {
            throw Failure(.invalidTrail, "\(path): the trail it carries is not valid: \(error)")
        }
    }

    /// Whether the bytes are plainly meant as a trail: trail JSON (`version` and `steps`, not a crash
    /// payload's `crashtrail` marker) or `ct1:` text.
    static func looksLikeTrail(_ bytes: [UInt8]) -> Bool {
        let significant = bytes.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if significant.starts(with: Array("ct1:".utf8)) { return true }
        guard let value = try? JSONParser.parse(bytes), let object = value.objectValue else { return false }
        return object["steps"] != nil && object["version"] != nil && object["crashtrail"] == nil
    }

    /// The dictionary ID the trail a crash payload carries names, read again from the payload.
    static func recordedDictionary(ofPayload bytes: [UInt8], format: ReportFormat?) -> String? {
        bytes.withUnsafeBufferPointer { buffer -> String? in
            guard let format = format ?? (try? FormatDetector.detect(buffer)).flatMap({ if case .single(let format) = $0 { format } else { nil } }),
                let carrier = (try? PayloadParser.parse(buffer, as: format))?.lazy.compactMap(\.trail).first
            else { return nil }
            switch carrier {
            case .text(let text): return TrailCodec.recordedDictionaryID(Array(text.utf8))
            case .bytes(let bytes): return TrailCodec.recordedDictionaryID(bytes)
            case .keys(let keys):
                let object = JSONValue.object(keys.mapValues(JSONValue.string))
                return TrailCodec.recordedDictionaryID(CanonicalJSON.bytes(of: object))
            case .object: return nil
            }
        }
    }
}
