import CrashtrailCore
import CrashtrailEncoding
import CrashtrailFormats
import CrashtrailIntake
import CrashtrailStore
import Foundation

/// Where `replay` finds its trail: a trail file (JSON, `ct1:` text, split keys or binary), a crash payload file of
/// any supported format, or a report in the store.
public struct ReplaySource: Sendable {
    /// How the output names the report: the stored ID, or the file given.
    public let name: String
    public let trail: Trail
    /// The dictionary ID of the manifest the trail was encoded with, when it rode encoded (binary, `ct1:` text or
    /// split keys) and named one; nil for trail JSON or a trail encoded without a manifest.
    public var recordedDictionaryID: String?
    /// Whether the trail was inferred from the crash reporter's breadcrumbs rather than recorded (SPEC section 15).
    public var inferred = false

    /// Resolves REPORT: an existing file is read as a trail or a payload; anything else is a stored report ID (or a
    /// unique prefix of one) in the store `opener` opens, only then and once.
    /// - Throws: ``ReplayError`` saying why there is no trail, or a `StoreError`.
    static func resolve(_ report: String, manifests: [Manifest], opener: StoreOpener) throws -> ReplaySource {
        let location = opener.location
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: report, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else {
                throw ReplayError(.unreadable, "\(report) is a folder; pass one trail file, crash payload file or stored report ID")
            }
            guard let data = FileManager.default.contents(atPath: report) else {
                throw ReplayError(.unreadable, "cannot read \(report); check its permissions")
            }
            return try fromFile(Array(data), path: report, codec: TrailCodec(manifests: manifests))
        }
        guard location.mayExist else {
            throw ReplayError(
                .notFound,
                "\(report) is not a file, and there is no crash store at \(location.name) to look it up as a report ID; pass a trail or payload file, or --store with the store `crashtrail ingest` filled"
            )
        }
        return try fromStore(try opener.store().record(matchingPrefix: report))
    }

    /// A stored report's trail, with the dictionary ID stored beside it: the payload is not read again.
    static func fromStore(_ record: ReportRecord) throws -> ReplaySource {
        guard let json = record.trail else {
            let why = record.trailError.map { ": \($0)" } ?? ""
            throw ReplayError(
                .noTrail,
                "report \(record.id) has no trail to replay (trail \(record.trailSource.rawValue)\(why)); re-run crashtrail ingest with --trails DIR when its trail file arrives"
            )
        }
        do {
            return ReplaySource(
                name: record.id, trail: try Trail(json: Array(json.utf8)), recordedDictionaryID: record.trailDictionary,
                inferred: record.trailSource == .inferred)
        } catch {
            throw ReplayError(.invalidTrail, "report \(record.id): its stored trail is not valid: \(error)")
        }
    }

    /// A trail file, or a crash payload that carries one, read once.
    private static func fromFile(_ bytes: [UInt8], path: String, codec: TrailCodec) throws -> ReplaySource {
        let trailError: TrailCodecError
        do {
            let decoded = try codec.decodeKeepingJSON(bytes)
            return ReplaySource(name: path, trail: decoded.trail, recordedDictionaryID: decoded.dictionaryID)
        } catch {
            // A trail file's own problem is the answer; otherwise it may be a crash payload.
            if looksLikeTrail(bytes) { throw ReplayError(.invalidTrail, "\(path): not a valid trail: \(error)") }
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
                let payloadWhy = rejections.first.map { "\($0.code): \($0.message)" } ?? "no payload found"
                throw ReplayError(.unrecognized, "\(path) is neither a trail (\(trailError)) nor a crash payload (\(payloadWhy))")
            }
            throw ReplayError(.unrecognized, "\(path) is a crash payload crashtrail cannot read: \(rejection.code): \(rejection.message)")
        }
        guard records.count == 1 else {
            let ids = records.prefix(5).map(\.id).joined(separator: ", ")
            throw ReplayError(
                .severalPayloads,
                "\(path) holds \(records.count) crash payloads (\(ids)\(records.count > 5 ? ", …" : "")); ingest it with crashtrail ingest and replay one stored report ID"
            )
        }
        guard record.trail != nil else {
            let why = record.trailError.map { ": \($0)" } ?? ""
            let hint =
                record.trailSource == .missing && record.format == .ips
                ? "; an .ips report's trail rides in a separate file: ingest both with crashtrail ingest --trails DIR and replay the stored report"
                : ""
            throw ReplayError(
                .noTrail, "the crash payload \(path) carries no usable trail (trail \(record.trailSource.rawValue)\(why))\(hint)")
        }
        do {
            return ReplaySource(
                name: path, trail: try Trail(json: Array((record.trail ?? "").utf8)), recordedDictionaryID: record.trailDictionary,
                inferred: record.trailSource == .inferred)
        } catch {
            throw ReplayError(.invalidTrail, "\(path): the trail it carries is not valid: \(error)")
        }
    }

    /// Whether the bytes are plainly meant as a trail: trail JSON (`version` and `steps`, not a crash payload's
    /// `crashtrail` marker) or `ct1:` text.
    static func looksLikeTrail(_ bytes: [UInt8]) -> Bool {
        let significant = bytes.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if significant.starts(with: Array("ct1:".utf8)) { return true }
        guard let value = try? JSONParser.parse(bytes), let object = value.objectValue else { return false }
        return object["steps"] != nil && object["version"] != nil && object["crashtrail"] == nil
    }
}
