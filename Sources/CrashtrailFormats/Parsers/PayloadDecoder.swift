import CrashtrailCore
import Foundation

/// Decodes the narrow `Decodable` views of payloads with the decoder a ``ParseContext`` names, turning its errors into
/// rejections that say where the JSON broke.
enum PayloadDecoder {
    /// Decodes `T` from `bytes`.
    /// - Parameters:
    ///   - type: the payload's view.
    ///   - bytes: exactly the bytes `context.structure` describes, when it describes any.
    ///   - what: the part being read, for the rejection's message ("the KSCrash report").
    ///   - context: the decoder, the validated structure and what the payload types read of it.
    /// - Returns: the decoded view.
    /// - Throws: `RejectionError` (`invalid-json` or `invalid-report`) naming `what`.
    static func decode<T: Decodable>(
        _ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>, what: String, context: ParseContext
    ) throws(RejectionError) -> T {
        do {
            switch context.engine {
            case .skimming:
                let decoder = SkimmingDecoder(userInfo: context.userInfo)
                if let structure = context.structure { return try decoder.decode(T.self, from: bytes, structure: structure) }
                return try decoder.decode(T.self, from: bytes)
            case .foundation:
                let decoder = JSONDecoder()
                decoder.userInfo = context.userInfo
                return try decoder.decode(T.self, from: Data(bytes))
            }
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context) where context.codingPath.isEmpty:
                if context.underlyingError is JSONValueError {
                    // Valid JSON with a value Swift cannot hold: not a truncation.
                    throw RejectionError(.invalidJSON, "\(what) is not valid JSON (\(context.debugDescription))")
                }
                // Only text that stops short suggests a cut-off file; Foundation's errors do not say, so keep the hint.
                let endsEarly = (context.underlyingError as? JSONParseError)?.endsEarly ?? true
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
        if !(context.underlyingError is JSONParseError), let underlying = context.underlyingError as NSError?,
            let description = underlying.userInfo[NSDebugDescriptionErrorKey] as? String
        {
            return description
        }
        return context.debugDescription
    }
}
