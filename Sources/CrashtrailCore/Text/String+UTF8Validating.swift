extension String {
    /// The text that `bytes` spell in UTF-8, or nil when they are not valid UTF-8.
    ///
    /// The standard library's `String(validating:as:)` does the same from Swift 6, but an app runs on the library of
    /// its OS, and iOS 17 and earlier have none (the app side supports iOS 16). This uses only what every library has:
    /// `String(decoding:as:)` replaces each ill-formed sequence by U+FFFD, so valid UTF-8, and only valid UTF-8,
    /// decodes to exactly its own bytes. ASCII, by far the most common, is always valid and is not compared.
    ///
    /// ```swift
    /// String(utf8Validating: [0x68, 0xC3, 0xA9])  // "hé"
    /// String(utf8Validating: [0x68, 0xC3])        // nil: a sequence cut short
    /// ```
    /// - Parameter bytes: the UTF-8 bytes.
    package init?(utf8Validating bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        if !Self.isASCII(bytes) {
            guard text.utf8.count == bytes.count else { return nil }
            let same = text.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(bytes) } ?? text.utf8.elementsEqual(bytes)
            guard same else { return nil }
        }
        self = text
    }

    /// The text that `bytes` spell in UTF-8, or nil when they are not valid UTF-8 (``init(utf8Validating:)``).
    /// - Parameter bytes: the UTF-8 bytes.
    package init?(utf8Validating bytes: some Collection<UInt8>) {
        let text =
            bytes.withContiguousStorageIfAvailable { String(utf8Validating: $0) }
            ?? Array(bytes).withUnsafeBufferPointer {
                String(utf8Validating: $0)
            }
        guard let text else { return nil }
        self = text
    }

    /// Whether every byte is below 0x80, read eight at a time.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= bytes.count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(base[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
