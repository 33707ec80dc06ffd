/// A part of a payload that is used when it has the expected shape and ignored when it does not, so one odd
/// optional field never costs a crash.
struct Lenient<Wrapped: Decodable & Sendable>: Decodable, Sendable {
    var value: Wrapped?

    init(from decoder: any Decoder) throws {
        value = try? Wrapped(from: decoder)
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`, or nil when it is missing, null or of another shape: a field a payload view reads leniently.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}
