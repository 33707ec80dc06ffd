import CrashtrailCore

extension CrashReport {
    /// The JSON form `crashtrail show --format json` prints (SPEC section 8), with `exceptionBacktrace` (frames as in
    /// `frames`) added when the payload gives the uncaught exception's own backtrace.
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
            "signature": .string(signature),
            "trailInfo": trailInfo.jsonValue,
        ]
        if !exceptionBacktrace.isEmpty { object["exceptionBacktrace"] = .array(exceptionBacktrace.map(\.jsonValue)) }
        return .object(object)
    }
}

extension ExceptionInfo {
    /// `type`, `code`, `signal`, `reason`, each a string or null.
    public var jsonValue: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object(["type": text(type), "code": text(code), "signal": text(signal), "reason": text(reason)])
    }
}

extension StackFrame {
    /// `image`, `symbol`, `offset`, each a value or null, and `rawSymbol`, the name as the payload wrote it, only when
    /// the symbol was demangled.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "image": image.map(JSONValue.string) ?? .null,
            "symbol": symbol.map(JSONValue.string) ?? .null,
            "offset": offset.map(JSONValue.int) ?? .null,
        ]
        if let rawSymbol { object["rawSymbol"] = .string(rawSymbol) }
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
