import Foundation

/// Where a request's project key is (SPEC section 14): Sentry's `X-Sentry-Auth` header
/// (`Sentry sentry_key=KEY, sentry_version=7, …`), its `sentry_key` query parameter, an envelope header's `dsn`
/// (`http://KEY@HOST/ID`), or `Authorization: Bearer KEY`.
///
/// The headers are read as bytes, as every request carries one: the scheme is matched without regard to case, and
/// names and keys are trimmed of HTTP's optional whitespace (spaces and tabs, RFC 9110 section 5.6.3).
enum ProjectKey {
    /// The `sentry_key` of an `X-Sentry-Auth` (or `Authorization: Sentry …`) header value.
    ///
    /// The pairs after the scheme are split at commas, and each at its first `=`. A pair with nothing after its `=` is
    /// passed over, so a later `sentry_key` still counts; a key of only whitespace is none.
    static func fromSentryAuth(_ value: String) -> String? {
        var value = value
        return value.withUTF8 { bytes -> String? in
            guard var cursor = afterScheme("sentry", in: bytes, from: skipSpace(bytes, from: 0)) else { return nil }
            while cursor < bytes.count {
                let end = bytes[cursor...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
                defer { cursor = end + 1 }
                guard let equals = bytes[cursor..<end].firstIndex(of: UInt8(ascii: "=")), equals + 1 < end,
                    trimmed(bytes[cursor..<equals]).elementsEqual("sentry_key".utf8)
                else { continue }
                let key = trimmed(bytes[(equals + 1)..<end])
                return key.isEmpty ? nil : String(decoding: key, as: UTF8.self)
            }
            return nil
        }
    }

    /// The key of a `Bearer` authorization header value.
    static func fromBearer(_ value: String) -> String? {
        var value = value
        return value.withUTF8 { bytes -> String? in
            // A space parts the scheme from the key (RFC 9110 section 11.4).
            guard let cursor = afterScheme("bearer", in: bytes, from: skipSpace(bytes, from: 0)), cursor < bytes.count,
                bytes[cursor] == UInt8(ascii: " ")
            else { return nil }
            let key = trimmed(bytes[cursor...])
            return key.isEmpty ? nil : String(decoding: key, as: UTF8.self)
        }
    }

    /// The key in a DSN's user part.
    static func fromDSN(_ dsn: String) -> String? {
        guard let components = URLComponents(string: dsn), let user = components.user, !user.isEmpty else { return nil }
        return user
    }

    /// The index after `scheme` (lower-case letters) at `start`, matched without regard to case; nil where it is not
    /// there.
    private static func afterScheme(_ scheme: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let count = scheme.utf8CodeUnitCount
        guard bytes.count - start >= count else { return nil }
        for offset in 0..<count where bytes[start + offset] | 0x20 != scheme.utf8Start[offset] { return nil }
        return start + count
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index
    }

    private static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice.removeFirst() }
        while let last = slice.last, isSpace(last) { slice.removeLast() }
        return slice
    }
}
