public import CrashtrailCore
import Crypto
public import Foundation

/// Replaces what a manifest marks `redact` with keyed stand-ins before a step reaches the journal, a sink or any
/// encoded form (SPEC section 12).
///
/// It fails closed (SPEC section 18): a destination the manifest does not know keeps its name and has every value of
/// its payload replaced, and an `open` of a URL no route matches keeps only its scheme and host, so the plain text of
/// what the manifest cannot describe never leaves either.
///
/// A string becomes `"redacted-"` and 8 lowercase hex digits, an integer the non-negative integer those digits
/// spell; the digits are the first 8 of HMAC-SHA256 over the value's canonical JSON, keyed by the install's secret. The same
/// value gives the same stand-in under one key, so keep one key per install (``RedactionKey``): a user who opens
/// one item twice still shows one item, and nobody without the key can tell which item it was.
public struct Redactor: Sendable {
    public let manifest: Manifest
    private let key: [UInt8]
    /// Redacted paths by destination name; only destinations with some.
    private let paths: [String: [[String]]]
    /// The destinations the manifest knows.
    private let known: Set<String>

    /// - Parameters:
    ///   - manifest: the manifest whose `redact` keys say what to replace.
    ///   - key: the secret, at least 16 bytes (``RedactionKey/loadOrCreate(at:)`` keeps one per install).
    public init(manifest: Manifest, key: [UInt8]) {
        self.manifest = manifest
        self.key = key
        var paths: [String: [[String]]] = [:]
        for spec in manifest.destinations where !spec.redact.isEmpty { paths[spec.name] = spec.redact }
        self.paths = paths
        known = Set(manifest.destinations.map(\.name))
    }

    /// Whether the manifest redacts anything at all.
    ///
    /// Destinations it does not know are redacted either way.
    public var isActive: Bool { !paths.isEmpty }

    /// The step with every redacted value replaced.
    ///
    /// An `open` by URL that names a destination with redacted values is recorded as an `open` of that destination, its
    /// values replaced, so the URL never leaves.
    public func redact(_ step: Step) -> Step {
        switch step.op {
        case .push(let destination): return Step(t: step.t, .push(redact(destination)))
        case .present(let destination): return Step(t: step.t, .present(redact(destination)))
        case .open(.destination(let destination)): return Step(t: step.t, .open(.destination(redact(destination))))
        case .open(.url(let url)):
            guard let destination = manifest.destination(forURL: url) else { return Step(t: step.t, .open(.url(redact(url: url)))) }
            guard paths[destination.name] != nil else { return step }
            return Step(t: step.t, .open(.destination(redact(destination))))
        default: return step
        }
    }

    /// The destination with its redacted values replaced; every value of a destination the manifest does not know.
    public func redact(_ destination: Destination) -> Destination {
        guard known.contains(destination.name) else {
            return Destination(destination.name, destination.payload.mapValues(standIn))
        }
        guard let paths = paths[destination.name] else { return destination }
        var payload = destination.payload
        for path in paths { replace(at: path[...], in: &payload) }
        return Destination(destination.name, payload)
    }

    /// A URL no route matches, as its scheme and host and a stand-in of the rest (`piratebay://secret/redacted-…`).
    public func redact(url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return standIn(for: .string(url)).stringValue ?? "redacted" }
        let afterScheme = url[schemeEnd.upperBound...]
        let hostEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let rest = String(afterScheme[hostEnd...])
        guard !rest.isEmpty, rest != "/" else { return url }
        return String(url[..<hostEnd]) + "/" + (standIn(for: .string(rest)).stringValue ?? "redacted")
    }

    /// The state with every destination in it redacted.
    public func redact(_ state: NavigationState) -> NavigationState {
        var state = state
        state.stacks = state.stacks.map { $0.map(redact) }
        state.modals = state.modals.map { $0.map(redact) }
        if let pending = state.pending { state.pending = PendingDestination(redact(pending.destination), mode: pending.mode) }
        return state
    }

    /// The stand-in of `value`: strings and integers are replaced, and everything inside arrays and objects.
    public func standIn(for value: JSONValue) -> JSONValue {
        switch value {
        case .string, .int:
            let digest = HMAC<SHA256>.authenticationCode(for: CanonicalJSON.bytes(of: value), using: SymmetricKey(data: key))
            let prefix = Array(digest.prefix(4))
            if case .int = value {
                return .int(Int64(prefix.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }))
            }
            let hex = "0123456789abcdef".utf8.map { $0 }
            var text = "redacted-".utf8.map { $0 }
            for byte in prefix {
                text.append(hex[Int(byte >> 4)])
                text.append(hex[Int(byte & 0x0F)])
            }
            return .string(String(decoding: text, as: UTF8.self))
        case .array(let values): return .array(values.map(standIn))
        case .object(let fields): return .object(fields.mapValues(standIn))
        case .null, .bool: return value
        }
    }

    private func replace(at path: ArraySlice<String>, in payload: inout [String: JSONValue]) {
        guard let first = path.first, let value = payload[first] else { return }
        if path.count == 1 {
            payload[first] = standIn(for: value)
        } else if case .object(var fields) = value {
            replace(at: path.dropFirst(), in: &fields)
            payload[first] = .object(fields)
        }
    }
}

/// The secret a ``Redactor`` keys its stand-ins with, kept in a file per install.
public enum RedactionKey {
    /// The key in `url`, or a new random 32-byte key written there (readable by the owner only) when there is none.
    /// - Throws: when the file cannot be read or written, or holds fewer than 16 bytes.
    public static func loadOrCreate(at url: URL) throws -> [UInt8] {
        if let data = FileManager.default.contents(atPath: url.path) {
            guard data.count >= 16 else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
            }
            return Array(data)
        }
        let key = random()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(key).write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return key
    }

    /// A new random 32-byte key.
    public static func random() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
