import CrashtrailCore

/// The `Decoder` over one validated document, shared by every value of one decoding.
///
/// As with Foundation's `JSONDecoderImpl`, decoding a nested value points `current` at it for the time of its `init(from:)` and
/// back afterwards, so going deeper allocates nothing. It is also the single-value container of `current`.
///
/// It reads the caller's bytes in place, and its containers refer to it without retaining it (so that passing
/// them around costs no reference counting): neither it nor its containers may outlive the `SkimmingDecoder`
/// call that made them. The one `Decodable` that keeps a container past its `init(from:)`, the Sentry parser's image
/// probe, reads from it only in the same decode, before the next element is read.
final class SkimmingDecoderImpl: Decoder {
    /// What changes while decoding, kept behind a pointer so that reaching it costs no exclusivity check.
    struct State {
        /// The value being decoded now.
        var current: JSONPosition
        /// The coding path of `current`.
        var node: Int
        var members = MemberIndex()
        var paths = CodingPathArena()
    }

    let document: JSONDocument
    let state: UnsafeMutablePointer<State>
    /// Keeps `spans` alive.
    private let structure: JSONStructure
    /// Keeps the decoders handed out by `superDecoder` alive as long as this one, since their containers do
    /// not retain them.
    private var superDecoders: [SkimmingDecoderImpl] = []

    init(
        base: UnsafePointer<UInt8>, count: Int, structure: JSONStructure, current: JSONPosition,
        userInfo: [CodingUserInfoKey: any Sendable]
    ) {
        self.document = JSONDocument(base: base, count: count, spans: structure.spans)
        sendableUserInfo = userInfo
        self.userInfo = userInfo
        self.structure = structure
        state = .allocate(capacity: 1)
        state.initialize(to: State(current: current, node: CodingPathArena.root))
    }

    deinit {
        state.pointee.members.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var codingPath: [any CodingKey] { path(state.pointee.node, SkimmedCodingKey?.none) }

    /// The value being decoded now, for types that read it directly (`LooseScalar`) instead of trying one type
    /// after another through errors.
    var currentPosition: JSONPosition { state.pointee.current }

    let userInfo: [CodingUserInfoKey: Any]
    /// The same, as the decoders handed out by `superDecoder` take it.
    private let sendableUserInfo: [CodingUserInfoKey: any Sendable]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try keyedContainer(Key.self, at: state.pointee.current, node: state.pointee.node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(at: state.pointee.current, node: state.pointee.node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: - Containers and nested values, shared by the containers

    /// A keyed container over the object at `position`, whose coding path is `node`; its members are indexed
    /// now. (Not generic over the key of the path, so that making one needs no metadata beyond its own.)
    /// - Throws: `DecodingError.valueNotFound` for null, `.typeMismatch` for anything but an object, and
    ///   `.dataCorrupted` (as Foundation) when one of the object's keys is not valid text.
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, at position: JSONPosition, node: Int) throws -> SkimmingKeyedContainer<Key> {
        switch document.kind(of: position) {
        case .object:
            return SkimmingKeyedContainer(decoder: self, node: node, members: try members(of: position, node: node))
        case .null:
            throw DecodingError.valueNotFound(
                [String: Any].self,
                DecodingError.Context(
                    codingPath: path(node, SkimmedCodingKey?.none),
                    debugDescription: "Cannot get keyed decoding container -- found null value instead"))
        case let kind:
            throw DecodingError.typeMismatch(
                [String: Any].self,
                DecodingError.Context(
                    codingPath: path(node, SkimmedCodingKey?.none),
                    debugDescription: "Expected to decode Dictionary<String, Any> but found \(kind.phrase) instead."))
        }
    }

    /// An unkeyed container over the array at `position`, whose coding path is `node`.
    /// - Throws: `DecodingError.valueNotFound` for null, `.typeMismatch` for anything but an array.
    func unkeyedContainer(at position: JSONPosition, node: Int) throws -> SkimmingUnkeyedContainer {
        switch document.kind(of: position) {
        case .array:
            return SkimmingUnkeyedContainer(decoder: self, node: node, array: position)
        case .null:
            throw DecodingError.valueNotFound(
                [Any].self,
                DecodingError.Context(
                    codingPath: path(node, SkimmedCodingKey?.none),
                    debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
        case let kind:
            throw DecodingError.typeMismatch(
                [Any].self,
                DecodingError.Context(
                    codingPath: path(node, SkimmedCodingKey?.none),
                    debugDescription: "Expected to decode Array<Any> but found \(kind.phrase) instead."))
        }
    }

    /// Decodes a `T` from the value at `position`, whose coding path is `node`, with this decoder pointed at it
    /// meanwhile.
    @inline(__always)
    func decodeNested<T: Decodable>(_ type: T.Type, at position: JSONPosition, node: Int) throws -> T {
        let saved = (state.pointee.current, state.pointee.node)
        state.pointee.current = position
        state.pointee.node = node
        defer { (state.pointee.current, state.pointee.node) = saved }
        return try T(from: self)
    }

    /// A decoder of its own for the value at `position` (whose coding path is `node`), for `superDecoder()`: it
    /// may be kept and used after this decoder has moved on (but not after the decoding ends).
    func superDecoder(at position: JSONPosition, node: Int) -> SkimmingDecoderImpl {
        let decoder = SkimmingDecoderImpl(
            base: document.base, count: document.count, structure: structure, current: position,
            userInfo: sendableUserInfo)
        var copied = CodingPathArena.root
        for key in path(node, SkimmedCodingKey?.none) { copied = decoder.state.pointee.paths.explicit(key, under: copied) }
        decoder.state.pointee.node = copied
        superDecoders.append(decoder)
        return decoder
    }

    /// The coding path of `node`, then `key` when given.
    func path(_ node: Int, _ key: (some CodingKey)?) -> [any CodingKey] {
        state.pointee.paths.path(to: node, then: key, members: state.pointee.members, base: document.base)
    }

    /// Indexes the members of the object at `position` and returns their range in `state.members`.
    /// - Throws: `DecodingError.dataCorrupted` (with an empty path, as Foundation) when a key is not valid UTF-8
    ///   or holds a lone surrogate escape: Foundation turns every key of an object it opens into a `String`.
    private func members(of position: JSONPosition, node: Int) throws -> Range<Int> {
        let first = state.pointee.members.count
        var offset = document.skipWhitespace(from: position.offset + 1)
        guard document.base[offset] != .closeBrace else { return first..<first }
        var child = position.span + 1
        while true {
            // A key: the document is valid, so `offset` is at its opening quote.
            let keyStart = offset + 1
            let (keyEnd, escaped, ascii) = JSONBytes.scanString(document.base, from: keyStart, count: document.count)
            var unescapedKey: String?
            if escaped || !ascii {
                do throws(ScalarReadError) {
                    let text = try document.text(between: keyStart, and: keyEnd, escaped: escaped)
                    if escaped { unescapedKey = text }
                } catch {
                    throw decodingError(error, String.self, "String", node: node, key: SkimmedCodingKey?.none)
                }
            }
            offset = document.skipWhitespace(from: document.skipWhitespace(from: keyEnd + 1) + 1)  // past the colon
            var value = JSONPosition(offset: offset, span: -1)
            if document.base[offset] == .openBrace || document.base[offset] == .openBracket {
                value.span = child
                offset = document.spans[child].end
                child = document.spans[child].after
            } else {
                offset = document.end(of: value)
            }
            state.pointee.members.append(keyStart: keyStart, keyEnd: keyEnd, unescapedKey: unescapedKey, value: value)
            offset = document.skipWhitespace(from: offset)
            guard document.base[offset] == .comma else { return first..<state.pointee.members.count }
            offset = document.skipWhitespace(from: offset + 1)
        }
    }
}

extension SkimmingDecoderImpl: SingleValueDecodingContainer {
    private var value: JSONPosition { state.pointee.current }

    /// Foundation's error for `failure` reading the current value.
    private func failed(_ failure: ScalarReadError, _ type: Any.Type, _ name: String) -> DecodingError {
        decodingError(failure, type, name, node: state.pointee.node, key: SkimmedCodingKey?.none)
    }

    func decodeNil() -> Bool { document.kind(of: value) == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        do throws(ScalarReadError) { return try document.bool(at: value) } catch { throw failed(error, type, "Bool") }
    }

    func decode(_ type: String.Type) throws -> String {
        do throws(ScalarReadError) { return try document.string(at: value) } catch { throw failed(error, type, "String") }
    }

    func decode(_ type: Double.Type) throws -> Double {
        do throws(ScalarReadError) { return try document.floatingPoint(type, at: value) } catch { throw failed(error, type, "Double") }
    }

    func decode(_ type: Float.Type) throws -> Float {
        do throws(ScalarReadError) { return try document.floatingPoint(type, at: value) } catch { throw failed(error, type, "Float") }
    }

    func decode(_ type: Int.Type) throws -> Int {
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int") }
    }

    func decode(_ type: Int8.Type) throws -> Int8 {
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int8") }
    }

    func decode(_ type: Int16.Type) throws -> Int16 {
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int16") }
    }

    func decode(_ type: Int32.Type) throws -> Int32 {
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int32") }
    }

    func decode(_ type: Int64.Type) throws -> Int64 {
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "Int64") }
    }

    func decode(_ type: UInt.Type) throws -> UInt {
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt") }
    }

    func decode(_ type: UInt8.Type) throws -> UInt8 {
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt8") }
    }

    func decode(_ type: UInt16.Type) throws -> UInt16 {
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt16") }
    }

    func decode(_ type: UInt32.Type) throws -> UInt32 {
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt32") }
    }

    func decode(_ type: UInt64.Type) throws -> UInt64 {
        do throws(ScalarReadError) { return try document.integer(type, at: value) } catch { throw failed(error, type, "UInt64") }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}
