import CrashtrailCore
import CrashtrailFormats
import Crypto
import Foundation

/// The identify stage of the intake path: a parsed payload's ID and the digest that tells its bytes again (SPEC
/// section 8).
struct PayloadIdentity: Hashable, Sendable {
    /// The report's ID: the payload's own identifier, else its digest.
    var id: String
    /// The lower-case hex SHA-256 of the payload's own bytes.
    var digest: String

    /// The identity of `parsed`, one of the payloads of `bytes`.
    /// - Parameters:
    ///   - parsed: the parsed payload.
    ///   - bytes: the whole input.
    ///   - wholeDigest: the SHA-256 of all of `bytes`, when known; set when this call computes it.
    /// - Returns: the report's ID and digest.
    static func of(_ parsed: ParsedPayload, in bytes: UnsafeBufferPointer<UInt8>, wholeDigest: inout String?) -> PayloadIdentity {
        let digest: String
        if let range = parsed.identityRange {
            // An envelope's event item among several: its own bytes name it.
            digest = PayloadDigest.sha256(UnsafeBufferPointer(rebasing: bytes[range]))
        } else {
            let whole = wholeDigest ?? PayloadDigest.sha256(bytes)
            wholeDigest = whole
            digest = whole
        }
        // A MetricKit crash diagnostic is named by its payload's digest and its place.
        if let index = parsed.diagnosticIndex { return PayloadIdentity(id: "\(digest).\(index)", digest: digest) }
        return PayloadIdentity(id: parsed.payloadID ?? digest, digest: digest)
    }
}

/// Lower-case hex SHA-256 of bytes: a payload's digest.
package enum PayloadDigest {
    /// The lower-case hex SHA-256 of `bytes`.
    package static func sha256(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        Hex.lowercase(SHA256.hash(data: UnsafeRawBufferPointer(bytes)))
    }
}

/// An input's bytes as the store keeps them: compressed, with their size.
struct CompressedPayload {
    var data: Data
    var size: Int
}
