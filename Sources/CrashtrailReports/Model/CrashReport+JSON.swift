import CrashtrailCore

extension CrashReport {
    /// The JSON form `crashtrail show --format json` prints (SPEC section 8), with these additions: `crashedThread`
    /// (the index, or null), `binaryImages` (see ``BinaryImage/jsonValue``), `exception.mach` and
    /// `exception.language`, and `exceptionBacktrace` (frames as in `frames`) when the payload gives the uncaught
    /// exception's own backtrace.
    public var jsonValue: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        var object: [String: JSONValue] = [
            "id": .string(id),
            "format": .string(format.rawValue),
            "app": .object(["bundleID": text(app.bundleID), "version": text(app.version), "build": text(app.build)]),
            "os": .object(["name": text(os.name), "version": text(os.version)]),
            "device": text(device),
            "time": text(time),
            "exception": exception.jsonValue,
            "frames": .array(frames.map(\.jsonValue)),
            "crashedThread": crashedThread.map { .int(Int64($0)) } ?? .null,
            "binaryImages": .array(binaryImages.map(\.jsonValue)),
            "signature": .string(signature),
            "trailInfo": trailInfo.jsonValue,
        ]
        if !exceptionBacktrace.isEmpty { object["exceptionBacktrace"] = .array(exceptionBacktrace.map(\.jsonValue)) }
        return .object(object)
    }
}

extension ExceptionInfo {
    /// `type`, `code`, `signal`, `reason`, `mach`, each a string or null, and `language`: the uncaught language
    /// exception as `{"name", "reason"}`, or null.
    public var jsonValue: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object([
            "type": text(type), "code": text(code), "signal": text(signal), "reason": text(reason), "mach": text(mach),
            "language": language.map { .object(["name": .string($0.name), "reason": text($0.reason)]) } ?? .null,
        ])
    }
}

extension BinaryImage {
    /// `name`, `uuid` (lower-case with dashes, or null) and `loadAddress` (`0x` and lower-case hex digits, or null).
    public var jsonValue: JSONValue {
        .object([
            "name": .string(name), "uuid": uuid.map(JSONValue.string) ?? .null,
            "loadAddress": loadAddress.map { .string("0x" + String($0, radix: 16)) } ?? .null,
        ])
    }
}

extension StackFrame {
    /// `image`, `symbol`, `offset`, each a value or null; and, only when known (SPEC section 16), `rawSymbol` (the
    /// name as the payload or the debug file wrote it, when it was demangled), `file`, `line`, `inlined` and
    /// `functionOffset` (the offset into the function).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "image": image.map(JSONValue.string) ?? .null,
            "symbol": symbol.map(JSONValue.string) ?? .null,
            "offset": offset.map(JSONValue.int) ?? .null,
        ]
        if let rawSymbol { object["rawSymbol"] = .string(rawSymbol) }
        if let file { object["file"] = .string(file) }
        if let line { object["line"] = .int(Int64(line)) }
        if inlined { object["inlined"] = .bool(true) }
        if let functionOffset { object["functionOffset"] = .int(functionOffset) }
        return .object(object)
    }
}

extension TrailInfo {
    /// `source`, `steps` (count or null), `error` (text or null).
    public var jsonValue: JSONValue {
        .object([
            "source": .string(source.rawValue),
            "steps": steps.map { .int(Int64($0)) } ?? .null,
            "error": error.map(JSONValue.string) ?? .null,
        ])
    }
}
