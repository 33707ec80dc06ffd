import Foundation

/// Decodes the narrow `Decodable` views of payloads with `SkimmingDecoder`, turning its errors into rejections
/// that say where the JSON broke.
enum PayloadDecoder {
    /// Which decoder reads payloads.
    enum Engine: Sendable {
        /// `SkimmingDecoder`: validates the whole text, materializes only what the types read.
        case skimming
        /// Foundation's `JSONDecoder`, which crashtrail used before; kept so tests can compare the two.
        case foundation
    }

    /// The engine for decodings in this task; tests bind `.foundation` to get the reference results.
    @TaskLocal static var engine: Engine = .skimming

    /// An input format detection already validated: a decoding of exactly those bytes skips validating them again.
    @TaskLocal static var validated: ValidatedObject?

    /// Decodes `T` from `bytes`.
    /// - Throws: `RejectionError` (`invalid-json` or `invalid-report`) naming `what`.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>, what: String) throws(RejectionError) -> T {
        do {
            switch engine {
            case .skimming:
                let decoded =
                    bytes.withContiguousStorageIfAvailable { buffer in
                        Result {
                            if let validated, validated.isValidation(of: buffer) {
                                return try SkimmingDecoder().decode(T.self, from: buffer, structure: validated.structure)
                            }
                            return try SkimmingDecoder().decode(T.self, from: buffer)
                        }
                    }
                    ?? Array(bytes).withUnsafeBufferPointer { buffer in Result { try SkimmingDecoder().decode(T.self, from: buffer) } }
                return try decoded.get()
            case .foundation:
                return try JSONDecoder().decode(T.self, from: Data(bytes))
            }
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context) where context.codingPath.isEmpty:
                if context.underlyingError is JSONValueError {
                    // Valid JSON with a value Swift cannot hold: not a truncation.
                    throw RejectionError(.invalidJSON, "\(what) is not valid JSON (\(context.debugDescription))")
                }
                // Only text that stops short suggests a cut-off file; Foundation's errors do not say, so keep the hint.
                let endsEarly = (context.underlyingError as? JSONSyntaxError)?.endsEarly ?? true
                throw RejectionError(
                    .invalidJSON, "\(what) is not valid JSON (\(Self.detail(context)))" + (endsEarly ? "; it may be truncated" : ""))
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
                .valueNotFound(_, let context):
                throw RejectionError(
                    .invalidReport, "\(what) has an unusable field at \(path(context.codingPath)): \(context.debugDescription)")
            @unknown default:
                throw RejectionError(.invalidJSON, "\(what) could not be decoded: \(error)")
            }
        } catch {
            throw RejectionError(.invalidJSON, "\(what) could not be decoded: \(error)")
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }

    /// What broke: `SkimmingDecoder`'s description ("line 1, byte 80: expected ',' or '}' ..."), or the
    /// message Foundation keeps in its underlying error.
    private static func detail(_ context: DecodingError.Context) -> String {
        if !(context.underlyingError is JSONSyntaxError), let underlying = context.underlyingError as NSError?,
            let description = underlying.userInfo[NSDebugDescriptionErrorKey] as? String
        {
            return description
        }
        return context.debugDescription
    }
}
