import CrashtrailCore

/// The `json` format (SPEC section 9): one canonical JSON object and a newline.
///
/// Written straight to bytes with the keys in their canonical (code point) order, rather than building a
/// `JSONValue` tree and sorting every object's keys: a 100,000-step replay has 100,000 step objects. The
/// output is byte for byte `CanonicalJSON.string(of: replay.jsonValue)`, which the tests check.
enum JSONReplayRenderer {
    static func render(_ replay: Replay) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(512 + replay.steps.count * 160)
        write(replay, into: &out)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    // Keys in code point order: anomalies, app, difference, final, links, recordedFinal, report, steps, verified.
    private static func write(_ replay: Replay, into out: inout [UInt8]) {
        key("anomalies", first: true, &out)
        out.append(UInt8(ascii: "["))
        for (index, anomaly) in replay.anomalies.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            write(anomaly, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        key("app", &out)
        key("build", first: true, &out)
        CanonicalJSON.writeString(replay.app.build, into: &out)
        key("bundleID", &out)
        CanonicalJSON.writeString(replay.app.bundleID, into: &out)
        key("version", &out)
        CanonicalJSON.writeString(replay.app.version, into: &out)
        out.append(UInt8(ascii: "}"))
        if replay.verified == false, let difference = replay.difference {
            key("difference", &out)
            CanonicalJSON.writeString(difference.description, into: &out)
        }
        key("final", &out)
        CanonicalJSON.write(replay.final.jsonValue, into: &out)
        key("links", &out)
        CanonicalJSON.write(replay.links.jsonValue, into: &out)
        key("recordedFinal", &out)
        CanonicalJSON.write(replay.recordedFinal?.jsonValue ?? .null, into: &out)
        key("report", &out)
        CanonicalJSON.writeString(replay.report, into: &out)
        key("steps", &out)
        out.append(UInt8(ascii: "["))
        for (index, step) in replay.steps.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            write(step, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        key("verified", &out)
        literal(replay.verified.map { $0 ? "true" : "false" } ?? "null", &out)
        out.append(UInt8(ascii: "}"))
    }

    // Keys: anomalies, depth, index, modals, op, t, to, top, url.
    private static func write(_ step: ReplayedStep, into out: inout [UInt8]) {
        key("anomalies", first: true, &out)
        out.append(UInt8(ascii: "["))
        for (index, kind) in step.anomalies.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            CanonicalJSON.writeString(kind.rawValue, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        key("depth", &out)
        literal(String(step.depth), &out)
        key("index", &out)
        literal(String(step.index), &out)
        key("modals", &out)
        literal(String(step.modals), &out)
        key("op", &out)
        CanonicalJSON.writeString(step.op, into: &out)
        key("t", &out)
        literal(String(step.t), &out)
        key("to", &out)
        write(step.to, into: &out)
        key("top", &out)
        write(step.top, into: &out)
        key("url", &out)
        if let url = step.url { CanonicalJSON.writeString(url, into: &out) } else { literal("null", &out) }
        out.append(UInt8(ascii: "}"))
    }

    // Keys: after, detail, kind, step.
    private static func write(_ anomaly: NavigationAnomaly, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        if let after = anomaly.after {
            CanonicalJSON.writeString("after", into: &out)
            out.append(UInt8(ascii: ":"))
            literal(String(after), &out)
            out.append(UInt8(ascii: ","))
        }
        CanonicalJSON.writeString("detail", into: &out)
        out.append(UInt8(ascii: ":"))
        CanonicalJSON.writeString(anomaly.detail, into: &out)
        key("kind", &out)
        CanonicalJSON.writeString(anomaly.kind.rawValue, into: &out)
        key("step", &out)
        literal(String(anomaly.step), &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func write(_ destination: Destination?, into out: inout [UInt8]) {
        guard let destination else { return literal("null", &out) }
        out.append(UInt8(ascii: "{"))
        CanonicalJSON.writeString(destination.name, into: &out)
        out.append(UInt8(ascii: ":"))
        if destination.payload.isEmpty {
            literal("{}", &out)
        } else {
            CanonicalJSON.write(.object(destination.payload), into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Opens an object before the first key (`{"name":`), else separates keys (`,"name":`).
    private static func key(_ name: String, first: Bool = false, _ out: inout [UInt8]) {
        out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
        CanonicalJSON.writeString(name, into: &out)
        out.append(UInt8(ascii: ":"))
    }

    private static func literal(_ text: String, _ out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }
}
