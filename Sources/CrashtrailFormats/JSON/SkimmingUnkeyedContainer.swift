import CrashtrailCore

/// The elements of one array, walked in order.
///
/// An element that fails to decode is not consumed (the next `decode` reads it again), as in Foundation's
/// `JSONDecoder`.
///
/// A plain value (its decoder is not retained, see `SkimmingDecoderImpl`), so copying it costs nothing.
struct SkimmingUnkeyedContainer: UnkeyedDecodingContainer {
    /// The decoder, not retained: reached through `guaranteed` on hot paths, which costs no reference counting.
    private let unmanaged: Unmanaged<SkimmingDecoderImpl>
    private let document: JSONDocument
    private let state: UnsafeMutablePointer<SkimmingDecoderImpl.State>
    /// This array's coding path.
    let node: Int
    private let array: JSONPosition
    private(set) var currentIndex = 0
    private(set) var isAtEnd: Bool
    /// The current element (meaningless at the end).
    private var element: JSONPosition
    /// The span number of the next array or object at or after the current element.
    private var nextSpan: Int

    init(decoder: SkimmingDecoderImpl, node: Int, array: JSONPosition) {
        self.unmanaged = Unmanaged.passUnretained(decoder)
        self.document = decoder.document
        self.state = decoder.state
        self.node = node
        self.array = array
        let first = document.skipWhitespace(from: array.offset + 1)
        isAtEnd = document.base[first] == .closeBracket
        nextSpan = array.span + 1
        element = JSONPosition(offset: first, span: -1)
        element.span = spanIfContainer(first)
    }

    /// The decoder (retained for the time of the use).
    var decoder: SkimmingDecoderImpl { unmanaged.takeUnretainedValue() }

    /// Runs `body` with the decoder, without retaining it.
    @inline(__always)
    private func guaranteed<R>(_ body: (SkimmingDecoderImpl) throws -> R) rethrows -> R {
        try unmanaged._withUnsafeGuaranteedRef(body)
    }

    var codingPath: [any CodingKey] { decoder.path(node, SkimmedCodingKey?.none) }

    /// The number of elements, counted by walking the array (nested arrays and objects in one step each).
    var count: Int? {
        var walker = SkimmingUnkeyedContainer(decoder: decoder, node: node, array: array)
        var count = 0
        while !walker.isAtEnd {
            walker.advance()
            count += 1
        }
        return count
    }

    @inline(__always)
    private func spanIfContainer(_ offset: Int) -> Int {
        let byte = document.base[offset]
        return byte == .openBrace || byte == .openBracket ? nextSpan : -1
    }

    /// Moves past the current element.
    private mutating func advance() {
        let end: Int
        if element.span >= 0 {
            end = document.spans[element.span].end
            nextSpan = document.spans[element.span].after
        } else {
            end = document.end(of: element)
        }
        currentIndex += 1
        let next = document.skipWhitespace(from: end)
        guard document.base[next] == .comma else {
            isAtEnd = true
            return
        }
        let offset = document.skipWhitespace(from: next + 1)
        element = JSONPosition(offset: offset, span: -1)
        element.span = spanIfContainer(offset)
    }

    private var key: SkimmedCodingKey { .index(currentIndex) }

    /// The current element, or Foundation's error at the end.
    private func current(_ type: Any.Type) throws -> JSONPosition {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: decoder.path(node, key), debugDescription: "Unkeyed container is at end."))
        }
        return element
    }

    /// Foundation's error for `failure` reading the current element.
    private func failed(_ failure: ScalarReadError, _ type: Any.Type, _ name: String) -> DecodingError {
        decoder.decodingError(failure, type, name, node: node, key: key)
    }

    /// Reads the current element with `read` and moves past it.
    ///
    /// On failure the element stays current (the next `decode` reads it again) and the error is Foundation's for
    /// `type`.
    @inline(__always)
    private mutating func decodeScalar<T>(
        _ type: T.Type, _ name: String, _ read: (JSONDocument, JSONPosition) throws(ScalarReadError) -> T
    ) throws -> T {
        let value = try current(type)
        do throws(ScalarReadError) {
            let decoded = try read(document, value)
            advance()
            return decoded
        } catch {
            throw failed(error, type, name)
        }
    }

    mutating func decodeNil() throws -> Bool {
        guard document.kind(of: try current(Never.self)) == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        try decodeScalar(type, "Bool") { (document, value) throws(ScalarReadError) in try document.bool(at: value) }
    }

    mutating func decode(_ type: String.Type) throws -> String {
        try decodeScalar(type, "String") { (document, value) throws(ScalarReadError) in try document.string(at: value) }
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        try decodeScalar(type, "Double") { (document, value) throws(ScalarReadError) in try document.floatingPoint(type, at: value) }
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        try decodeScalar(type, "Float") { (document, value) throws(ScalarReadError) in try document.floatingPoint(type, at: value) }
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        try decodeScalar(type, "Int") { (document, value) throws(ScalarReadError) in try document.integer(type, at: value) }
    }

    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        try decodeScalar(type, "Int8") { (document, value) throws(ScalarReadError) in try document.integer(type, at: value) }
    }

    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        try decodeScalar(type, "Int16") { (document, value) throws(ScalarReadError) in try document.integer(type, at: value) }
    }

    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        try decodeScalar(type, "Int32") { (document, value) throws(ScalarReadError) in try document.integer(type, at: value) }
    }

    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        try decodeScalar(type, "Int64") { (document, value) throws(ScalarReadError) in try document.integer(type, at: value) }
    }

    mutating func decode(_ type: UInt.Type) throws -> UInt {
        try decodeScalar(type, "UInt") { (document, value) throws(ScalarReadError) in try document.integer(type, at: value) }
    }

    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        try decodeScalar(type, "UInt8") { (document, value) throws(ScalarReadError) in try document.integer(type, at: value) }
    }

    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        try decodeScalar(type, "UInt16") { (document, value) throws(ScalarReadError) in try document.integer(type, at: value) }
    }

    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        try decodeScalar(type, "UInt32") { (document, value) throws(ScalarReadError) in try document.integer(type, at: value) }
    }

    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        try decodeScalar(type, "UInt64") { (document, value) throws(ScalarReadError) in try document.integer(type, at: value) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let element = try current(T.self)
        let node = state.pointee.paths.index(currentIndex, under: node)
        let value = try guaranteed { try $0.decodeNested(T.self, at: element, node: node) }
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try decoder.keyedContainer(
            NestedKey.self, at: try current(KeyedDecodingContainer<NestedKey>.self),
            node: state.pointee.paths.index(currentIndex, under: node))
        advance()
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try decoder.unkeyedContainer(
            at: try current((any UnkeyedDecodingContainer).self), node: state.pointee.paths.index(currentIndex, under: node))
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = decoder.superDecoder(at: try current((any Decoder).self), node: state.pointee.paths.index(currentIndex, under: node))
        advance()
        return decoder
    }
}
