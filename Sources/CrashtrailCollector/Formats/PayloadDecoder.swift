import Foundation

/// Decodes the narrow `Decodable` views of payloads with Foundation's `JSONDecoder`, turning its errors into
/// rejections that say where the JSON broke.
enum PayloadDecoder {
    /// Decodes `T` from `bytes`.
    /// - Throws: `RejectionError` (`invalid-json` or `invalid-report`) naming `what`.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>, what: String) throws(RejectionError) -> T {
        let data = Data(bytes)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context) where context.codingPath.isEmpty:
                throw RejectionError(.invalidJSON, "\(what) is not valid JSON (\(Self.detail(context))); it may be truncated")
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
                .valueNotFound(_, let context):
                throw RejectionError(.invalidReport, "\(what) has an unusable field at \(path(context.codingPath)): \(context.debugDescription)")
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

    private static func detail(_ context: DecodingError.Context) -> String {
        if let underlying = context.underlyingError as NSError?,
            let description = underlying.userInfo[NSDebugDescriptionErrorKey] as? String
        {
            return description
        }
        return context.debugDescription
    }
}
