import CrashtrailCore

extension SkimmingDecoderImpl {
    // MARK: - Errors

    /// The `DecodingError` Foundation throws for `failure` reading a `type` (named `name`) at `node` then `key`.
    ///
    /// A value of the wrong kind is a `typeMismatch` with the value's coding path, and null a `valueNotFound`
    /// (but a `typeMismatch` for `Bool`, as Foundation has it). A value the type cannot hold (invalid UTF-8, a
    /// lone surrogate escape, a number out of range or with a fraction) is `dataCorrupted` with an empty coding
    /// path, as Foundation reports it (so the payload counts as invalid JSON); its description names the byte
    /// offset and the field.
    func decodingError(_ failure: ScalarReadError, _ type: Any.Type, _ name: String, node: Int, key: (some CodingKey)?) -> DecodingError {
        switch failure {
        case .kind(let kind):
            let context: DecodingError.Context
            if kind == .null, ObjectIdentifier(type) != ObjectIdentifier(Bool.self) {
                context = DecodingError.Context(
                    codingPath: path(node, key), debugDescription: "Cannot get value of type \(name) -- found null value instead")
                return DecodingError.valueNotFound(type, context)
            }
            context = DecodingError.Context(
                codingPath: path(node, key), debugDescription: "Expected to decode \(name) but found \(kind.phrase) instead.")
            return DecodingError.typeMismatch(type, context)
        case .invalidUTF8(let offset):
            return corrupted("the string at \(place(offset, node, key)) is not valid UTF-8", at: offset)
        case .loneSurrogate(let offset, let codeUnit):
            return corrupted(
                "the string at \(place(offset, node, key)) holds a lone surrogate escape (\\u\(String(codeUnit, radix: 16, uppercase: true)))",
                at: offset)
        case .unrepresentable(let offset, let end):
            let text = String(decoding: UnsafeBufferPointer(start: document.base + offset, count: end - offset), as: UTF8.self)
            return corrupted("the number \(text) at \(place(offset, node, key)) does not fit in \(name)", at: offset)
        }
    }

    /// "line 3, byte 120 (frames[0].imageOffset)".
    private func place(_ offset: Int, _ node: Int, _ key: (some CodingKey)?) -> String {
        let line = JSONParseError(.syntax, "", at: offset, in: document.bytes).line
        let field = CodingPathArena.dotted(path(node, key))
        return "line \(line), byte \(offset)" + (field.isEmpty ? "" : " (\(field))")
    }

    /// A value JSON can carry but Swift cannot take, reported as Foundation reports it: corrupted data with an
    /// empty coding path.
    private func corrupted(_ message: String, at offset: Int) -> DecodingError {
        let error = JSONValueError(message: message, offset: offset)
        return DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: message, underlyingError: error))
    }
}
