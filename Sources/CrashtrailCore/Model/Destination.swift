/// One screen with its parameters, in the JSON form Swift's synthesized `Codable` writes for an enum case:
/// `{"item":{"id":"L-42"}}`, `{"home":{}}`, `{"invoice":{"_0":17}}`.
///
/// This is the generic form the CLI and the replayer use; an app's own `Codable` enum converts to and from it
/// with ``init(encoding:)`` and ``decoded(as:)``.
public struct Destination: Hashable, Sendable {
    /// The enum case name, such as `item`.
    public var name: String
    /// The associated values by label (`_0`, `_1`, … when unlabeled).
    public var payload: [String: JSONValue]

    public init(_ name: String, _ payload: [String: JSONValue] = [:]) {
        self.name = name
        self.payload = payload
    }

    /// The JSON form, `{name: payload}`.
    public var jsonValue: JSONValue {
        .object([name: .object(payload)])
    }

    /// Reads the JSON form, refusing anything but an object with exactly one key whose value is an object.
    /// - Throws: `DestinationError` saying what the value was instead.
    public init(jsonValue: JSONValue) throws(DestinationError) {
        guard case .object(let object) = jsonValue else {
            throw DestinationError(
                .invalidDestination, "a destination must be an object such as {\"home\":{}}, found \(jsonValue.kindName)")
        }
        guard object.count == 1, let (name, payload) = object.first else {
            throw DestinationError(
                .invalidDestination,
                "a destination must be an object with exactly one key (the screen's case name), found \(object.count) keys")
        }
        guard case .object(let fields) = payload else {
            throw DestinationError(
                .invalidDestination,
                "the destination \"\(name)\" must map to an object of its parameters ({} when it has none), found \(payload.kindName)")
        }
        self.name = name
        self.payload = fields
    }

    /// The value at a dotted path into the payload (`id.rawValue`), or nil when a step is missing or meets a
    /// non-object.
    public func value(atPath path: [String]) -> JSONValue? {
        Self.value(atPath: path, in: payload)
    }

    /// Sets the value at a dotted path into the payload, making the nested objects on the way
    /// (`["id", "rawValue"]` gives `{"id":{"rawValue":…}}`).
    public mutating func setValue(_ value: JSONValue, atPath path: [String]) {
        Self.setValue(value, atPath: path[...], in: &payload)
    }

    /// Sets the value at a dotted path into a payload, making the nested objects on the way; a step that meets a
    /// non-object replaces it with an object.
    public static func setValue(_ value: JSONValue, atPath path: ArraySlice<String>, in payload: inout [String: JSONValue]) {
        guard let key = path.first else { return }
        if path.count == 1 {
            payload[key] = value
            return
        }
        var nested = payload[key]?.objectValue ?? [:]
        setValue(value, atPath: path.dropFirst(), in: &nested)
        payload[key] = .object(nested)
    }

    static func value(atPath path: [String], in payload: [String: JSONValue]) -> JSONValue? {
        guard let first = path.first, var value = payload[first] else { return nil }
        for key in path.dropFirst() {
            guard case .object(let object) = value, let next = object[key] else { return nil }
            value = next
        }
        return value
    }

    /// The canonical JSON text, such as `{"item":{"id":"L-42"}}`.
    public var canonicalJSON: String { CanonicalJSON.string(of: jsonValue) }
}

extension Destination: CustomStringConvertible {
    public var description: String { canonicalJSON }
}

/// A value that is not a destination, or a typed destination that does not turn into one.
public struct DestinationError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        /// JSON that is not one case name mapped to an object of its parameters.
        public static let invalidDestination = Code(name: "invalid-destination")
        /// A typed destination whose value does not encode as one.
        public static let unencodable = Code(name: "unencodable")
        /// A destination that does not decode as the type asked for.
        public static let typeMismatch = Code(name: "type-mismatch")
    }

    public var code: Code
    public var message: String
    public var cause: (any Error & Sendable)?

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: what the value was instead, and what a destination is.
    ///   - cause: the encoder's or decoder's error, when one failed.
    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }
}
