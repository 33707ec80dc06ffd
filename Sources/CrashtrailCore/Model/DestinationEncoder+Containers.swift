// The three containers of DestinationEncoder. Each scalar goes through one of the encoder's conversions, so a keyed
// field, an array element and a single value are written alike.

extension DestinationEncoder {
    /// Writes the fields of an object under the keys exactly as the coding keys spell them.
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let object: ObjectBox
        let codingPath: [any CodingKey]

        private func set(_ value: JSONValue, forKey key: Key) {
            object.fields[key.stringValue] = .value(value)
        }

        mutating func encodeNil(forKey key: Key) throws { set(.null, forKey: key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), forKey: key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), forKey: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            set(try DestinationEncoder.floatingPoint(value, at: codingPath + [key]), forKey: key)
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            set(try DestinationEncoder.floatingPoint(value, at: codingPath + [key]), forKey: key)
        }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(Int64(value)), forKey: key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int64(value)), forKey: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int64(value)), forKey: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int64(value)), forKey: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(value), forKey: key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws {
            set(try DestinationEncoder.integer(value, at: codingPath + [key]), forKey: key)
        }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int64(value)), forKey: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int64(value)), forKey: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.int(Int64(value)), forKey: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws {
            set(try DestinationEncoder.integer(value, at: codingPath + [key]), forKey: key)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            object.fields[key.stringValue] = try DestinationEncoder.slot(for: value, at: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested: ObjectBox
            if case .object(let existing) = object.fields[key.stringValue] {
                nested = existing
            } else {
                nested = ObjectBox()
                object.fields[key.stringValue] = .object(nested)
            }
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested: ArrayBox
            if case .array(let existing) = object.fields[key.stringValue] {
                nested = existing
            } else {
                nested = ArrayBox()
                object.fields[key.stringValue] = .array(nested)
            }
            return UnkeyedContainer(array: nested, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder {
            superEncoder(named: DestinationCodingKey.superKey)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            superEncoder(named: key)
        }

        private func superEncoder(named key: some CodingKey) -> any Encoder {
            let (encoder, slot) = DestinationEncoder.superEncoder(at: codingPath + [key])
            object.fields[key.stringValue] = slot
            return encoder
        }
    }

    /// Appends the elements of an array.
    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let array: ArrayBox
        let codingPath: [any CodingKey]
        var count: Int { array.elements.count }

        /// The path of the element appended next.
        private var nextPath: [any CodingKey] { codingPath + [DestinationCodingKey.index(count)] }

        private func append(_ value: JSONValue) {
            array.elements.append(.value(value))
        }

        mutating func encodeNil() throws { append(.null) }
        mutating func encode(_ value: Bool) throws { append(.bool(value)) }
        mutating func encode(_ value: String) throws { append(.string(value)) }
        mutating func encode(_ value: Double) throws { append(try DestinationEncoder.floatingPoint(value, at: nextPath)) }
        mutating func encode(_ value: Float) throws { append(try DestinationEncoder.floatingPoint(value, at: nextPath)) }
        mutating func encode(_ value: Int) throws { append(.int(Int64(value))) }
        mutating func encode(_ value: Int8) throws { append(.int(Int64(value))) }
        mutating func encode(_ value: Int16) throws { append(.int(Int64(value))) }
        mutating func encode(_ value: Int32) throws { append(.int(Int64(value))) }
        mutating func encode(_ value: Int64) throws { append(.int(value)) }
        mutating func encode(_ value: UInt) throws { append(try DestinationEncoder.integer(value, at: nextPath)) }
        mutating func encode(_ value: UInt8) throws { append(.int(Int64(value))) }
        mutating func encode(_ value: UInt16) throws { append(.int(Int64(value))) }
        mutating func encode(_ value: UInt32) throws { append(.int(Int64(value))) }
        mutating func encode(_ value: UInt64) throws { append(try DestinationEncoder.integer(value, at: nextPath)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            array.elements.append(try DestinationEncoder.slot(for: value, at: nextPath))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let nested = ObjectBox()
            let path = nextPath
            array.elements.append(.object(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = ArrayBox()
            let path = nextPath
            array.elements.append(.array(nested))
            return UnkeyedContainer(array: nested, codingPath: path)
        }

        mutating func superEncoder() -> any Encoder {
            let (encoder, slot) = DestinationEncoder.superEncoder(at: nextPath)
            array.elements.append(slot)
            return encoder
        }
    }

    /// Writes the one value an encoder stands for (a raw-value enum, a `UUID`, an element of an array).
    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: DestinationEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { encoder.set(.null) }
        mutating func encode(_ value: Bool) throws { encoder.set(.bool(value)) }
        mutating func encode(_ value: String) throws { encoder.set(.string(value)) }
        mutating func encode(_ value: Double) throws { encoder.set(try DestinationEncoder.floatingPoint(value, at: codingPath)) }
        mutating func encode(_ value: Float) throws { encoder.set(try DestinationEncoder.floatingPoint(value, at: codingPath)) }
        mutating func encode(_ value: Int) throws { encoder.set(.int(Int64(value))) }
        mutating func encode(_ value: Int8) throws { encoder.set(.int(Int64(value))) }
        mutating func encode(_ value: Int16) throws { encoder.set(.int(Int64(value))) }
        mutating func encode(_ value: Int32) throws { encoder.set(.int(Int64(value))) }
        mutating func encode(_ value: Int64) throws { encoder.set(.int(value)) }
        mutating func encode(_ value: UInt) throws { encoder.set(try DestinationEncoder.integer(value, at: codingPath)) }
        mutating func encode(_ value: UInt8) throws { encoder.set(.int(Int64(value))) }
        mutating func encode(_ value: UInt16) throws { encoder.set(.int(Int64(value))) }
        mutating func encode(_ value: UInt32) throws { encoder.set(.int(Int64(value))) }
        mutating func encode(_ value: UInt64) throws { encoder.set(try DestinationEncoder.integer(value, at: codingPath)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            encoder.set(slot: try DestinationEncoder.slot(for: value, at: codingPath))
        }
    }
}
