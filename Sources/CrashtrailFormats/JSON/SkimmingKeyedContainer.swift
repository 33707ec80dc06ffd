import CrashtrailCore

/// The members of one object, looked up by comparing key bytes with `CodingKey.stringValue`.
///
/// No key is made into a `String` unless it is written with escapes. When a key repeats, its first value wins, as in
/// Foundation's `JSONDecoder`.
///
/// A plain value holding pointers (its decoder is not retained, see `SkimmingDecoderImpl`), so copying it and
/// reading through it cost no reference counting.
struct SkimmingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The decoder, not retained: reached through `guaranteed` on hot paths, which costs no reference counting.
    private let unmanaged: Unmanaged<SkimmingDecoderImpl>
    private let document: JSONDocument
    private let state: UnsafeMutablePointer<SkimmingDecoderImpl.State>
    /// This object's coding path.
    let node: Int
    /// This object's members in the decoder's `MemberIndex`.
    let members: Range<Int>

    init(decoder: SkimmingDecoderImpl, node: Int, members: Range<Int>) {
        self.unmanaged = Unmanaged.passUnretained(decoder)
        self.document = decoder.document
        self.state = decoder.state
        self.node = node
        self.members = members
    }

    /// The decoder (retained for the time of the use).
    var decoder: SkimmingDecoderImpl { unmanaged.takeUnretainedValue() }

    /// Runs `body` with the decoder, without retaining it.
    @inline(__always)
    private func guaranteed<R>(_ body: (SkimmingDecoderImpl) throws -> R) rethrows -> R {
        try unmanaged._withUnsafeGuaranteedRef(body)
    }

    var codingPath: [any CodingKey] { decoder.path(node, SkimmedCodingKey?.none) }

    /// Every distinct key that `Key` can represent, first occurrences only.
    var allKeys: [Key] {
        var seen: Set<String> = []
        var keys: [Key] = []
        for number in members {
            let text = state.pointee.members.key(number, base: document.base)
            guard seen.insert(text).inserted, let key = Key(stringValue: text) else { continue }
            keys.append(key)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { number(for: key) != nil }

    /// The member number of `key`.
    @inline(__always)
    private func number(for key: Key) -> Int? {
        state.pointee.members.number(named: key.stringValue, in: members, base: document.base)
    }

    @inline(__always)
    private func value(_ number: Int) -> JSONPosition { state.pointee.members.value(number) }

    /// The coding path node of member `number`, asked for with `key`.
    @inline(__always)
    private func node(_ number: Int, _ key: Key) -> Int { state.pointee.paths.member(number, key: key, under: node) }

    /// The member number of `key`, or Foundation's error when there is none.
    private func required(_ key: Key) throws -> Int {
        guard let number = number(for: key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return number
    }

    /// The member number of `key`, or nil when it is absent or null.
    @inline(__always)
    private func present(_ key: Key) -> Int? {
        guard let number = number(for: key), document.kind(of: value(number)) != .null else { return nil }
        return number
    }

    /// Foundation's error for `failure` reading the value of `key`.
    private func failed(_ failure: ScalarReadError, _ type: Any.Type, _ name: String, _ key: Key) -> DecodingError {
        decoder.decodingError(failure, type, name, node: node, key: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { document.kind(of: value(try required(key))) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.bool(at: value) } catch { throw failed(error, type, "Bool", key) }
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.string(at: value) } catch { throw failed(error, type, "String", key) }
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.floatingPoint(type, at: value) } catch { throw failed(error, type, "Double", key) }
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.floatingPoint(type, at: value) } catch { throw failed(error, type, "Float", key) }
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int", key) }
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int8", key) }
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int16", key) }
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int32", key) }
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int64", key) }
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt", key) }
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt8", key) }
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt16", key) }
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt32", key) }
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        let value = value(try required(key))
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt64", key) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let number = try required(key)
        let value = value(number)
        let node = node(number, key)
        return try guaranteed { try $0.decodeNested(T.self, at: value, node: node) }
    }

    // One look-up each, where the standard library's defaults would make three.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.bool(at: value) } catch { throw failed(error, type, "Bool", key) }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.string(at: value) } catch { throw failed(error, type, "String", key) }
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.floatingPoint(type, at: value) } catch { throw failed(error, type, "Double", key) }
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.floatingPoint(type, at: value) } catch { throw failed(error, type, "Float", key) }
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int", key) }
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int8", key) }
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int16", key) }
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int32", key) }
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int64", key) }
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt", key) }
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt8", key) }
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt16", key) }
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt32", key) }
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt64", key) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let number = present(key) else { return nil }
        let value = value(number)
        let node = node(number, key)
        return try guaranteed { try $0.decodeNested(T.self, at: value, node: node) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let number = try required(key)
        return KeyedDecodingContainer(try decoder.keyedContainer(NestedKey.self, at: value(number), node: node(number, key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let number = try required(key)
        return try decoder.unkeyedContainer(at: value(number), node: node(number, key))
    }

    /// A decoder for the value of `super`, reading null when there is none (as Foundation does).
    func superDecoder() throws -> any Decoder {
        let key = SkimmedCodingKey.super
        guard let number = state.pointee.members.number(named: key.stringValue, in: members, base: document.base) else {
            return decoder.superDecoder(at: .absent, node: state.pointee.paths.explicit(key, under: node))
        }
        return decoder.superDecoder(at: value(number), node: state.pointee.paths.member(number, key: key, under: node))
    }

    /// A decoder for the value of `key`, reading null when there is none (as Foundation does).
    func superDecoder(forKey key: Key) throws -> any Decoder {
        guard let number = number(for: key) else {
            return decoder.superDecoder(at: .absent, node: state.pointee.paths.explicit(key, under: node))
        }
        return decoder.superDecoder(at: value(number), node: node(number, key))
    }
}
