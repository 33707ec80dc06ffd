import CrashtrailCore
import Foundation
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailReports
@testable import CrashtrailStore

/// Runs the same decoding through `SkimmingDecoder` and Foundation's `JSONDecoder` (the reference), and puts
/// the results in a form tests can compare.
enum EngineComparison {
    /// What a parser made of one payload, with every field the store keeps.
    struct Parsed: Hashable, CustomStringConvertible {
        var format: ReportFormat
        var payloadID: String?
        var app: CrashReport.App
        var os: CrashReport.OS
        var device: String?
        var time: String?
        var exception: ExceptionInfo
        var frames: [StackFrame]
        var trail: TrailCarrier?
        var pid: Int64?
        var launchTime: Int64?
        var identityRange: Range<Int>?

        init(_ parsed: ParsedPayload) {
            format = parsed.format
            payloadID = parsed.payloadID
            app = parsed.app
            os = parsed.os
            device = parsed.device
            time = parsed.time
            exception = parsed.exception
            frames = parsed.frames
            trail = parsed.trail
            pid = parsed.pid
            launchTime = parsed.launchTime
            identityRange = parsed.identityRange
        }

        var description: String {
            "\(format) \(payloadID ?? "-") \(exception) frames \(frames.count) trail \(trail.map { "\($0)".prefix(60) } ?? "none")"
        }
    }

    /// The parsers' outcome for one payload.
    enum Outcome: Hashable, CustomStringConvertible {
        case parsed([Parsed])
        case rejected(RejectionError.Code, String)

        var code: RejectionError.Code? {
            if case .rejected(let code, _) = self { return code }
            return nil
        }

        var description: String {
            switch self {
            case .parsed(let payloads): "parsed \(payloads)"
            case .rejected(let code, let message): "rejected \(code): \(message)"
            }
        }

        /// Whether `other` is the same outcome: the same reports, or a rejection with the same code.
        ///
        /// A shape problem (`invalid-report`) must also have the same message, whose text does not depend on the
        /// JSON parser's wording, with one exception: inside an embedded trail (`DecodedJSON`), which reads an
        /// object's members in `allKeys` order, Foundation's order is a dictionary's (random), so when several
        /// members are unusable the one named may differ.
        func matches(_ other: Outcome) -> Bool {
            switch (self, other) {
            case (.parsed(let mine), .parsed(let theirs)): return mine == theirs
            case (.rejected(let code, let message), .rejected(let otherCode, let otherMessage)):
                guard code == otherCode else { return false }
                guard code == .invalidReport, message != otherMessage else { return true }
                let mine = Self.unusableField(message)
                let theirs = Self.unusableField(otherMessage)
                return mine.what == theirs.what && mine.problem == theirs.problem && mine.path.contains("trail")
                    && theirs.path.contains("trail")
            default: return false
            }
        }

        /// "WHAT has an unusable field at PATH: PROBLEM", split.
        private static func unusableField(_ message: String) -> (what: String, path: String, problem: String) {
            guard let at = message.range(of: " has an unusable field at "),
                let colon = message[at.upperBound...].range(of: ": ")
            else { return (message, "", "") }
            return (
                String(message[..<at.lowerBound]), String(message[at.upperBound..<colon.lowerBound]),
                String(message[colon.upperBound...])
            )
        }
    }

    /// Parses `bytes` as `format` with `engine`.
    static func parse(_ bytes: [UInt8], as format: ReportFormat, engine: ParseContext.Engine) -> Outcome {
        bytes.withUnsafeBufferPointer { buffer in
            do throws(RejectionError) {
                return .parsed(try PayloadParser.parse(buffer, as: format, context: ParseContext(engine: engine)).payloads.map(Parsed.init))
            } catch {
                return .rejected(error.code, error.message)
            }
        }
    }

    /// The payloads in a file, as ingest splits them: the whole file, or each line of an NDJSON file; with the
    /// format detected for each (nil when detection refuses it, so no parser runs).
    static func payloads(in bytes: [UInt8]) -> [(bytes: [UInt8], format: ReportFormat)] {
        switch try? bytes.withUnsafeBufferPointer({ try FormatDetector.detect($0) }) {
        case .single(let format): return [(bytes, format)]
        case .lines:
            return bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
                let line = Array(line)
                guard case .single(let format)? = try? line.withUnsafeBufferPointer({ try FormatDetector.detect($0) }) else { return nil }
                return (line, format)
            }
        case nil: return []
        }
    }

    /// Both engines' outcomes for `bytes` as `format`.
    static func both(_ bytes: [UInt8], as format: ReportFormat) -> (skimming: Outcome, foundation: Outcome) {
        (parse(bytes, as: format, engine: .skimming), parse(bytes, as: format, engine: .foundation))
    }

    // MARK: - Decoding types directly

    /// A `DecodingError` reduced to what callers can see and act on: its kind, coding path and description (the
    /// description of corrupted data is the parser's own wording, so only the kind and the empty path count).
    struct ErrorSummary: Hashable, CustomStringConvertible {
        var kind: String
        var path: String
        var detail: String

        init(_ error: any Error) {
            guard let error = error as? DecodingError else {
                kind = "other"
                path = ""
                detail = "\(error)"
                return
            }
            switch error {
            case .dataCorrupted(let context):
                kind = "dataCorrupted"
                path = Self.path(context.codingPath)
                detail = ""
            case .keyNotFound(let key, let context):
                kind = "keyNotFound(\(key.stringValue))"
                path = Self.path(context.codingPath)
                detail = context.debugDescription
            case .typeMismatch(let type, let context):
                kind = "typeMismatch(\(type))"
                path = Self.path(context.codingPath)
                detail = context.debugDescription
            case .valueNotFound(let type, let context):
                kind = "valueNotFound(\(type))"
                path = Self.path(context.codingPath)
                detail = context.debugDescription
            @unknown default:
                kind = "unknown"
                path = ""
                detail = "\(error)"
            }
        }

        static func path(_ keys: [any CodingKey]) -> String {
            keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        }

        var description: String { "\(kind) at '\(path)' \(detail)" }
    }

    /// The result of decoding a `T`: the value, or the summary of the error.
    enum Decoded<T: Equatable>: Equatable, CustomStringConvertible {
        case value(T)
        case error(ErrorSummary)

        var description: String {
            switch self {
            case .value(let value): "value \(value)"
            case .error(let error): "error \(error)"
            }
        }

        var error: ErrorSummary? {
            if case .error(let error) = self { return error }
            return nil
        }
    }

    static func skimming<T: Decodable & Equatable>(_ type: T.Type, _ bytes: [UInt8]) -> Decoded<T> {
        bytes.withUnsafeBufferPointer { buffer in
            do { return .value(try SkimmingDecoder().decode(T.self, from: buffer)) } catch { return .error(ErrorSummary(error)) }
        }
    }

    static func foundation<T: Decodable & Equatable>(_ type: T.Type, _ bytes: [UInt8]) -> Decoded<T> {
        do { return .value(try JSONDecoder().decode(T.self, from: Data(bytes))) } catch { return .error(ErrorSummary(error)) }
    }

    /// Decodes `json` with both engines and expects the same value or the same error.
    static func expectSame<T: Decodable & Equatable>(
        _ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let bytes = Array(json.utf8)
        let mine = skimming(T.self, bytes)
        let reference = foundation(T.self, bytes)
        #expect(mine == reference, "\(json)", sourceLocation: sourceLocation)
    }

    /// Every file under `folder` (recursively, skipping hidden files), sorted.
    static func files(under folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true && !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.path < $1.path }
    }
}
