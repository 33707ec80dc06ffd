import CrashtrailCore
import CrashtrailEncoding
import CrashtrailStore
import Crypto
import Foundation

/// Turns one input's bytes into store rows or rejections: detect, parse, decode the trail, sign, hash and
/// compress.
///
/// Pure and thread-safe, so ingest workers run it in parallel.
public struct PayloadProcessor: Sendable {
    /// What became of one payload.
    public enum Outcome: Sendable {
        /// A row to store.
        case record(ReportRecord)
        /// Refused: the bytes go to quarantine with the reason.
        case rejected(RejectionError, source: String, bytes: [UInt8])
        /// Diagnostics that are not crashes (a MetricKit payload's hangs, CPU and disk exceptions): counted, not stored.
        case skipped(count: Int, source: String)
    }

    /// What the ingest job makes of one payload: an outcome, or bytes already stored (not parsed again).
    enum IngestStep: Sendable {
        case outcome(Outcome)
        case alreadyStored(String)
        /// Over the size limit: only a reason is written, naming the input.
        case tooLarge(RejectionError, source: String)
    }

    public let decoder: any TrailDecoding
    /// Looks up a payload's SHA-256 among the stored reports, so a re-run skips parsing what it already has.
    public let storedID: (@Sendable (String) -> String?)?

    /// The most steps an embedded trail may have; more is refused as undecodable.
    public let maximumTrailSteps: Int

    /// Whether payloads' breadcrumbs are read: some manifest names screens (SPEC section 15).
    ///
    /// Decided once, not for every payload.
    let readsBreadcrumbs: Bool

    /// - Parameters:
    ///   - decoder: Decodes embedded trails.
    ///   - storedID: The ID of the stored report with this payload digest, if any.
    ///   - maximumTrailSteps: The most steps an embedded trail may have.
    public init(decoder: any TrailDecoding, storedID: (@Sendable (String) -> String?)? = nil, maximumTrailSteps: Int = 100_000) {
        self.decoder = decoder
        self.storedID = storedID
        self.maximumTrailSteps = maximumTrailSteps
        readsBreadcrumbs = decoder.namesScreens
    }

    /// Processes an input file's or line's bytes.
    /// - Parameters:
    ///   - bytes: The whole input.
    ///   - source: Its name for the store and for reasons (a path, or `PATH:LINE`).
    /// - Returns: The outcomes and how many payloads were examined (lines count one each).
    public func process(_ bytes: UnsafeBufferPointer<UInt8>, source: String) -> (outcomes: [Outcome], inputs: Int) {
        let (steps, inputs) = steps(for: bytes, source: source)
        return (steps.compactMap { step in if case .outcome(let outcome) = step { outcome } else { nil } }, inputs)
    }

    /// Processes one NDJSON line: a single-line payload of any JSON format.
    public func processLine(_ line: UnsafeBufferPointer<UInt8>, source: String) -> [Outcome] {
        lineSteps(line, source: source).compactMap { step in if case .outcome(let outcome) = step { outcome } else { nil } }
    }

    /// The ingest job's view of `process`: payloads whose digest is already stored are skipped.
    func steps(for bytes: UnsafeBufferPointer<UInt8>, source: String) -> (steps: [IngestStep], inputs: Int) {
        // Most inputs are one JSON object: one validating pass gives detection its keys and the parse its
        // structure. Anything else is detected byte by byte, as before.
        // Bytes already stored are skipped before any parsing (a re-run over the same inputs). Whether the input
        // is one payload is only known after that, so an NDJSON file is hashed whole here for nothing (its lines
        // are looked up one by one): 3% of the bench corpus's bytes hashed twice, against validating every
        // stored payload again on a re-run.
        var wholeDigest: String?
        if let storedID {
            let digest = Self.sha256(bytes)
            if let id = storedID(digest) { return ([.alreadyStored(id)], 1) }
            wholeDigest = digest
        }
        if let object = ValidatedObject(bytes) {
            return (processValidated(object, bytes, digest: wholeDigest, source: source), 1)
        }
        let detection: FormatDetector.Detection
        do {
            detection = try FormatDetector.detect(bytes)
        } catch {
            return ([.outcome(.rejected(error, source: source, bytes: Array(bytes)))], 1)
        }
        switch detection {
        case .single(let format):
            return (processPayload(bytes, format: format, digest: wholeDigest, source: source), 1)
        case .lines:
            var outcomes: [IngestStep] = []
            var inputs = 0
            var start = 0
            var lineNumber = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                lineNumber += 1
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if line.contains(where: { !TopLevelKeys.isWhitespace($0) }) {
                    inputs += 1
                    outcomes += lineSteps(line, source: "\(source):\(lineNumber)")
                }
                start = end + 1
            }
            return (outcomes, inputs)
        }
    }

    func lineSteps(_ line: UnsafeBufferPointer<UInt8>, source: String) -> [IngestStep] {
        var digest: String?
        if let storedID {
            let lineDigest = Self.sha256(line)
            if let id = storedID(lineDigest) { return [.alreadyStored(id)] }
            digest = lineDigest
        }
        if let object = ValidatedObject(line) {
            return processValidated(object, line, digest: digest, source: source)
        }
        do {
            guard let keys = TopLevelKeys.scan(line) else {
                throw RejectionError(.unrecognizedFormat, "the line is not a JSON object")
            }
            return processPayload(line, format: try FormatDetector.classify(keys.keys), digest: digest, source: source)
        } catch let error as RejectionError {
            return [.outcome(.rejected(error, source: source, bytes: Array(line)))]
        } catch {
            return [.outcome(.rejected(RejectionError(.unrecognizedFormat, "\(error)"), source: source, bytes: Array(line)))]
        }
    }

    /// Classifies a validated single object by its keys, as `FormatDetector` does, and parses it without
    /// validating it again.
    private func processValidated(
        _ object: ValidatedObject, _ bytes: UnsafeBufferPointer<UInt8>, digest: String?, source: String
    ) -> [IngestStep] {
        let format: ReportFormat
        do {
            format = try FormatDetector.classify(object.keys)
        } catch {
            return [.outcome(.rejected(error, source: source, bytes: Array(bytes)))]
        }
        return PayloadDecoder.$validated.withValue(object) { processPayload(bytes, format: format, digest: digest, source: source) }
    }

    /// Parses and stores one payload.
    ///
    /// `digest` is the SHA-256 of all of `bytes` when the caller already has it
    /// (after looking it up among the stored reports).
    private func processPayload(
        _ bytes: UnsafeBufferPointer<UInt8>, format: ReportFormat, digest wholeDigest: String?, source: String
    ) -> [IngestStep] {
        var wholeDigest = wholeDigest
        let payloads: [ParsedPayload]
        var skipped: [IngestStep] = []
        do {
            if format == .metrickit {
                let (crashes, others) = try MetricKitParser.parse(bytes)
                payloads = crashes
                if others > 0 { skipped = [.outcome(.skipped(count: others, source: source))] }
            } else {
                // Breadcrumbs are read only when some manifest names screens to infer a trail with.
                let parsed = SentryBreadcrumbs.$wanted.withValue(readsBreadcrumbs) {
                    Result { () throws(RejectionError) in try PayloadParser.parse(bytes, as: format) }
                }
                payloads = try parsed.get()
            }
        } catch {
            return [.outcome(.rejected(error, source: source, bytes: Array(bytes)))]
        }
        let compressed = PayloadCompression.compressed(bytes)
        return skipped
            + payloads.map { parsed in
                var parsed = parsed
                let digest: String
                if let range = parsed.identityRange {
                    digest = Self.sha256(UnsafeBufferPointer(rebasing: bytes[range]))
                } else {
                    let whole = wholeDigest ?? Self.sha256(bytes)
                    wholeDigest = whole
                    digest = whole
                }
                if let index = parsed.diagnosticIndex { parsed.payloadID = "\(digest).\(index)" }
                return .outcome(.record(makeRecord(parsed, digest: digest, compressed: compressed, size: bytes.count, source: source)))
            }
    }

    /// The stored row for a parsed payload.
    func makeRecord(_ parsed: ParsedPayload, digest: String, compressed: Data, size: Int, source: String) -> ReportRecord {
        var trailInfo = TrailInfo.missing
        var trailJSON: String?
        var dictionaryID: String?
        // The trail the signature of a crash without frames reads its crash screen from, and the manifest for it.
        var crashTrail: Trail?
        var crashManifest: Manifest?
        var replayedScreens: ReplayedScreens?
        if let carrier = parsed.trail {
            do {
                if case .object(let value) = carrier, case .array(let steps)? = value["steps"], steps.count > maximumTrailSteps {
                    throw TrailTooLong(count: steps.count, limit: maximumTrailSteps)
                }
                let decoded = try decoder.decodeTrail(carrier)
                guard decoded.trail.steps.count <= maximumTrailSteps else {
                    throw TrailTooLong(count: decoded.trail.steps.count, limit: maximumTrailSteps)
                }
                trailInfo = TrailInfo(source: .embedded, steps: decoded.trail.steps.count)
                trailJSON = String(decoding: decoded.canonicalJSON, as: UTF8.self)
                dictionaryID = decoded.dictionaryID
                crashTrail = decoded.trail
                replayedScreens = decoded.replayedScreens
            } catch {
                trailInfo = TrailInfo(source: .undecodable, error: String(describing: error))
            }
        } else if let inferred = inferredTrail(parsed, digest: digest) {
            trailInfo = TrailInfo(source: .inferred, steps: inferred.trail.steps.count)
            trailJSON = String(decoding: DecodedTrail(inferred.trail).canonicalJSON, as: UTF8.self)
            dictionaryID = inferred.dictionaryID
            crashTrail = inferred.trail
            crashManifest = inferred.manifest
        }
        let frames = Self.demangled(parsed.frames)
        let exceptionFrames = Self.demangled(parsed.exceptionFrames)
        // An uncaught exception is grouped by where it was thrown, not by the abort path every exception shares.
        let exception = parsed.exception.completed()
        // The manifest the trail replays with: the one it was inferred or decoded with, else the app's.
        let manifest = crashTrail.flatMap { crashManifest ?? decoder.manifest(forApp: $0.app.bundleID, dictionaryID: dictionaryID) }
        let signature = CrashSignature.make(exception: exception, frames: exceptionFrames.isEmpty ? frames : exceptionFrames) {
            crashTrail?.crashScreen(manifest: manifest)
        }
        let screenPath = crashTrail.flatMap { trail in
            manifest.map { StoredScreenPath(trail: trail, manifest: $0, replayed: replayedScreens) }
        }
        return ReportRecord(
            id: parsed.payloadID ?? digest, format: parsed.format, sha256: digest, bundleID: parsed.app.bundleID,
            appVersion: parsed.app.version, appBuild: parsed.app.build, osName: parsed.os.name, osVersion: parsed.os.version,
            device: parsed.device, time: parsed.time, exceptionType: exception.type, exceptionCode: exception.code,
            exceptionSignal: exception.signal, exceptionReason: exception.reason,
            frames: ReportRecord.encodeFrames(frames), exceptionFrames: ReportRecord.encodeFrames(exceptionFrames),
            details: ReportRecord.encodeDetails(
                crashedThread: parsed.crashedThread, exception: exception,
                binaryImages: Self.imagesNamed(by: frames + exceptionFrames, from: parsed.binaryImages)),
            signature: signature,
            trailSource: trailInfo.source, trailSteps: trailInfo.steps, trailError: trailInfo.error, trail: trailJSON,
            trailDictionary: dictionaryID, screenPath: screenPath,
            pid: parsed.pid, launchTime: parsed.launchTime, source: source, payload: compressed, payloadSize: size)
    }

    /// The trail the payload's breadcrumbs give (SPEC section 15), with the manifest that named their screens and its
    /// dictionary ID; nil when the payload has no screen breadcrumbs, no bundle ID, or no manifest of its app names
    /// a screen it saw.
    func inferredTrail(_ parsed: ParsedPayload, digest: String) -> (trail: Trail, manifest: Manifest, dictionaryID: String)? {
        guard !parsed.sightings.isEmpty, let bundleID = parsed.app.bundleID,
            let (manifest, dictionaryID) = decoder.inferenceManifest(forApp: bundleID)
        else { return nil }
        let app = Trail.AppInfo(bundleID: bundleID, version: parsed.app.version ?? "", build: parsed.app.build ?? "")
        guard
            let trail = TrailInference.trail(
                from: parsed.sightings, manifest: manifest, app: app, sessionID: parsed.payloadID ?? digest, pid: parsed.pid ?? 0,
                fallbackStart: parsed.time.flatMap(Timestamp.milliseconds(parsing:)))
        else { return nil }
        return (trail, manifest, dictionaryID)
    }

    /// The images `frames` name, in the order they are first named, from the payload's `images`; the first of a name
    /// wins.
    static func imagesNamed(by frames: [StackFrame], from images: [BinaryImage]) -> [BinaryImage] {
        guard !images.isEmpty else { return [] }
        var byName: [String: BinaryImage] = [:]
        for image in images where byName[image.name] == nil { byName[image.name] = image }
        var seen: Set<String> = []
        return frames.compactMap { frame in
            guard let name = frame.image, seen.insert(name).inserted else { return nil }
            return byName[name]
        }
    }

    /// The frames with mangled Swift and C++ symbols demangled, the name as written kept in `rawSymbol`.
    static func demangled(_ frames: [StackFrame]) -> [StackFrame] {
        frames.map { frame in
            guard frame.rawSymbol == nil, let symbol = frame.symbol, let readable = Demangler.demangle(symbol) else { return frame }
            var demangled = frame
            demangled.symbol = readable
            demangled.rawSymbol = symbol
            return demangled
        }
    }

    /// Lower-case hex SHA-256.
    public static func sha256(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let digest = SHA256.hash(data: UnsafeRawBufferPointer(bytes))
        let hexDigits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// An embedded trail with more steps than the limit.
struct TrailTooLong: Error, CustomStringConvertible {
    var count: Int
    var limit: Int
    var description: String {
        "the trail has \(count) steps, over the limit of \(limit) (a recorder keeps 500); it was not stored"
    }
}
