// The three containers of DestinationDecoder. Each scalar goes through one of the decoder's conversions, so a keyed
// field, an array element and a single value are read alike.

extension DestinationDecoder {
    /// Reads the fields of an object by the keys exactly as the coding keys spell them; keys it does not ask for are
    /// ignored, as `JSONDecoder` ignores them.
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let object: [String: JSONValue]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

        /// The value under `key`.
        /// - Throws: `DecodingError.keyNotFound`, as `JSONDecoder` does, when there is none.
        private func value(forKey key: Key) throws -> JSONValue {
            guard let value = object[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: ""))
            }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool { try value(forKey: key) == .null }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try DestinationDecoder.bool(from: value(forKey: key), at: codingPath + [key])
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try DestinationDecoder.string(from: value(forKey: key), at: codingPath + [key])
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try DestinationDecoder.floatingPoint(type, from: value(forKey: key), at: codingPath + [key])
        }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            try DestinationDecoder.floatingPoint(type, from: value(forKey: key), at: codingPath + [key])
        }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, forKey: key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, forKey: key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, forKey: key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, forKey: key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, forKey: key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, forKey: key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, forKey: key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, forKey: key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, forKey: key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, forKey: key) }

        private func integer<T: FixedWidthInteger>(_ type: T.Type, forKey key: Key) throws -> T {
            try DestinationDecoder.integer(type, from: value(forKey: key), at: codingPath + [key])
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try DestinationDecoder.decodeValue(type, from: value(forKey: key), at: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            let value = try value(forKey: key)
            guard case .object(let object) = value else {
                throw DestinationDecoder.mismatch(type, expected: "an object", found: value, at: codingPath + [key])
            }
            return KeyedDecodingContainer(KeyedContainer<NestedKey>(object: object, codingPath: codingPath + [key]))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            let value = try value(forKey: key)
            guard case .array(let array) = value else {
                throw DestinationDecoder.mismatch([JSONValue].self, expected: "an array", found: value, at: codingPath + [key])
            }
            return UnkeyedContainer(array: array, codingPath: codingPath + [key])
        }

        func superDecoder() throws -> any Decoder {
            DestinationDecoder(
                value: object[DestinationCodingKey.superKey.stringValue] ?? .null, codingPath: codingPath + [DestinationCodingKey.superKey])
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            DestinationDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    /// Reads the elements of an array in order.
    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let array: [JSONValue]
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0

        init(array: [JSONValue], codingPath: [any CodingKey]) {
            self.array = array
            self.codingPath = codingPath
        }

        var count: Int? { array.count }
        var isAtEnd: Bool { currentIndex >= array.count }

        /// The path of the element read next.
        private var currentPath: [any CodingKey] { codingPath + [DestinationCodingKey.index(currentIndex)] }

        /// Reads the next element with `read` and moves past it only when it was read.
        /// - Throws: `DecodingError.valueNotFound`, as `JSONDecoder` does, past the end.
        private mutating func next<T>(_ type: T.Type, _ read: (JSONValue, [any CodingKey]) throws -> T) throws -> T {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    type, .init(codingPath: currentPath, debugDescription: "the array ends after \(array.count) elements"))
            }
            let result = try read(array[currentIndex], currentPath)
            currentIndex += 1
            return result
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    JSONValue.self, .init(codingPath: currentPath, debugDescription: "the array ends after \(array.count) elements"))
            }
            guard array[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try DestinationDecoder.bool(from: $0, at: $1) } }
        mutating func decode(_ type: String.Type) throws -> String { try next(type) { try DestinationDecoder.string(from: $0, at: $1) } }
        mutating func decode(_ type: Double.Type) throws -> Double {
            try next(type) { try DestinationDecoder.floatingPoint(type, from: $0, at: $1) }
        }
        mutating func decode(_ type: Float.Type) throws -> Float {
            try next(type) { try DestinationDecoder.floatingPoint(type, from: $0, at: $1) }
        }
        mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

        private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
            try next(type) { try DestinationDecoder.integer(type, from: $0, at: $1) }
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try next(type) { try DestinationDecoder.decodeValue(type, from: $0, at: $1) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next(KeyedDecodingContainer<NestedKey>.self) { value, path in
                guard case .object(let object) = value else {
                    throw DestinationDecoder.mismatch(type, expected: "an object", found: value, at: path)
                }
                return KeyedDecodingContainer(KeyedContainer<NestedKey>(object: object, codingPath: path))
            }
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next(UnkeyedContainer.self) { value, path in
                guard case .array(let array) = value else {
                    throw DestinationDecoder.mismatch([JSONValue].self, expected: "an array", found: value, at: path)
                }
                return UnkeyedContainer(array: array, codingPath: path)
            }
        }

        mutating func superDecoder() throws -> any Decoder {
            try next(DestinationDecoder.self) { DestinationDecoder(value: $0, codingPath: $1) }
        }
    }

    /// Reads the one value a decoder stands for (a raw-value enum, a `UUID`, an element of an array).
    struct SingleValueContainer: SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .null }
        func decode(_ type: Bool.Type) throws -> Bool { try DestinationDecoder.bool(from: value, at: codingPath) }
        func decode(_ type: String.Type) throws -> String { try DestinationDecoder.string(from: value, at: codingPath) }
        func decode(_ type: Double.Type) throws -> Double { try DestinationDecoder.floatingPoint(type, from: value, at: codingPath) }
        func decode(_ type: Float.Type) throws -> Float { try DestinationDecoder.floatingPoint(type, from: value, at: codingPath) }
        func decode(_ type: Int.Type) throws -> Int { try DestinationDecoder.integer(type, from: value, at: codingPath) }
        func decode(_ type: Int8.Type) throws -> Int8 { try DestinationDecoder.integer(type, from: value, at: codingPath) }
        func decode(_ type: Int16.Type) throws -> Int16 { try DestinationDecoder.integer(type, from: value, at: codingPath) }
        func decode(_ type: Int32.Type) throws -> Int32 { try DestinationDecoder.integer(type, from: value, at: codingPath) }
        func decode(_ type: Int64.Type) throws -> Int64 { try DestinationDecoder.integer(type, from: value, at: codingPath) }
        func decode(_ type: UInt.Type) throws -> UInt { try DestinationDecoder.integer(type, from: value, at: codingPath) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try DestinationDecoder.integer(type, from: value, at: codingPath) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try DestinationDecoder.integer(type, from: value, at: codingPath) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try DestinationDecoder.integer(type, from: value, at: codingPath) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try DestinationDecoder.integer(type, from: value, at: codingPath) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try DestinationDecoder.decodeValue(type, from: value, at: codingPath)
        }
    }
}
