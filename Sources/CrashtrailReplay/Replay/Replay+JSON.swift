public import CrashtrailCore

extension Replay {
    /// The JSON form of SPEC section 9: `report`, `app`, `steps`, `final`, `recordedFinal`, `verified`,
    /// `difference` (only when not verified), `links` and `anomalies`.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "report": .string(report),
            "app": .object(["bundleID": .string(app.bundleID), "version": .string(app.version), "build": .string(app.build)]),
            "steps": .array(steps.map(\.jsonValue)),
            "final": final.jsonValue,
            "recordedFinal": recordedFinal?.jsonValue ?? .null,
            "verified": verified.map(JSONValue.bool) ?? .null,
            "links": links.jsonValue,
            "anomalies": .array(anomalies.map(Self.jsonValue(of:))),
        ]
        if verified == false, let difference {
            object["difference"] = .string(difference.description)
        }
        return .object(object)
    }

    private static func jsonValue(of anomaly: NavigationAnomaly) -> JSONValue {
        var object: [String: JSONValue] = [
            "step": .int(Int64(anomaly.step)), "kind": .string(anomaly.kind.rawValue), "detail": .string(anomaly.detail),
        ]
        if let after = anomaly.after { object["after"] = .int(Int64(after)) }
        return .object(object)
    }
}

extension ReplayedStep {
    /// The JSON form of one step of SPEC section 9.
    ///
    /// `redacted: true` is added when the destination holds a stand-in for a redacted value (SPEC section 12).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "index": .int(Int64(index)),
            "t": .int(t),
            "op": .string(op),
            "to": to?.jsonValue ?? .null,
            "url": url.map(JSONValue.string) ?? .null,
            "top": top?.jsonValue ?? .null,
            "depth": .int(Int64(depth)),
            "modals": .int(Int64(modals)),
            "anomalies": .array(anomalies.map { .string($0.rawValue) }),
        ]
        if redacted { object["redacted"] = .bool(true) }
        return .object(object)
    }
}

extension ShortestLinks {
    /// The JSON form of SPEC section 9: `preconditions`, `urls`, `reproduces`, `unreproducible`, and `redacted`
    /// (the indices of the links that rebuild a screen with a stand-in record, SPEC section 12) when there are any.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "preconditions": .array(preconditions.map(JSONValue.string)),
            "urls": .array(urls.map(JSONValue.string)),
            "reproduces": .bool(reproduces),
            "unreproducible": .array(
                unreproducible.map { .object(["screen": $0.screen.jsonValue, "reason": .string($0.reason.code)]) }),
        ]
        let redacted = links.indices.filter { links[$0].redacted }
        if !redacted.isEmpty { object["redacted"] = .array(redacted.map { .int(Int64($0)) }) }
        return .object(object)
    }
}
