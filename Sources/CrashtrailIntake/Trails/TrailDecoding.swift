import CrashtrailCore
import CrashtrailEncoding
import CrashtrailFormats

/// Decodes a trail in any encoded form: what the collector needs from the trail codec.
///
/// Each method returns the trail with its canonical JSON, which is what the store keeps: decoding builds it
/// to verify the checksum, so ingest never writes it twice.
public protocol TrailDecoding: Sendable {
    /// Decodes bytes: binary, `ct1:` text, split-keys JSON or plain trail JSON.
    /// - Throws: An error whose description says why the trail is undecodable.
    func decodeTrail(bytes: [UInt8]) throws -> DecodedTrail
    /// Decodes `ct1:` text.
    func decodeTrail(text: String) throws -> DecodedTrail
    /// Decodes split keys (`crashtrail.0…N`).
    func decodeTrail(keys: [String: String]) throws -> DecodedTrail
    /// Whether some manifest it knows names screens, so payloads' breadcrumbs are worth reading (SPEC section 15).
    var namesScreens: Bool { get }
    /// The manifest a trail is inferred with for the app `bundleID` (SPEC section 15), and its dictionary ID.
    func inferenceManifest(forApp bundleID: String) -> (manifest: Manifest, dictionaryID: String)?
    /// The manifest a decoded trail of `bundleID` replays with: the one its dictionary ID names when it names one.
    func manifest(forApp bundleID: String, dictionaryID: String?) -> Manifest?
}

extension TrailDecoding {
    /// Decodes a trail as it rode in a payload.
    /// - Throws: An error whose description says why it is undecodable.
    package func decodeTrail(_ carrier: TrailCarrier) throws -> DecodedTrail {
        switch carrier {
        case .text(let text): try decodeTrail(text: text)
        case .keys(let keys): try decodeTrail(keys: keys)
        case .bytes(let bytes): try decodeTrail(bytes: bytes)
        case .object(let value): DecodedTrail(try Trail(jsonValue: value))
        }
    }
}

extension TrailDecoding {
    /// None by default.
    public var namesScreens: Bool { false }

    /// None by default.
    public func inferenceManifest(forApp bundleID: String) -> (manifest: Manifest, dictionaryID: String)? { nil }

    /// None by default.
    public func manifest(forApp bundleID: String, dictionaryID: String?) -> Manifest? { nil }
}
