extension Trail {
    /// The canonical JSON form (SPEC section 5).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "version": .int(version),
            "app": .object(["bundleID": .string(app.bundleID), "version": .string(app.version), "build": .string(app.build)]),
            "session": .object(sessionObject),
            "dropped": .int(dropped),
            "steps": .array(steps.map(\.jsonValue)),
        ]
        if let base { object["base"] = base.jsonValue }
        if let final { object["final"] = final.jsonValue }
        return .object(object)
    }

    /// The session's fields; `sampleRate` in billionths, as `JSONParser.parse(_:maximumDepth:decimalKeys:)` reads it.
    private var sessionObject: [String: JSONValue] {
        var object: [String: JSONValue] = ["id": .string(session.id), "started": .string(session.started), "pid": .int(session.pid)]
        if let ended = session.ended { object["ended"] = .string(ended.rawValue) }
        if let rate = session.sampleRate { object["sampleRate"] = .int(rate.billionths) }
        return object
    }

    /// The keys whose numbers a trail may write as decimals (SPEC section 20), for `JSONParser.parse`.
    public static let decimalKeys: Set<String> = ["session.sampleRate"]

    /// The canonical JSON bytes: equal trails give equal bytes.
    public var canonicalJSON: [UInt8] { TrailCanonicalWriter.bytes(of: self) }

    /// The canonical JSON text.
    public var canonicalJSONString: String { String(decoding: canonicalJSON, as: UTF8.self) }

    /// Parses and validates a trail's JSON text.
    /// - Throws: `TrailError` naming the step and field, or the JSON problem and its line.
    public init(json bytes: some Collection<UInt8>) throws(TrailError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, decimalKeys: Trail.decimalKeys)
        } catch {
            throw TrailError(.invalidJSON, at: "", "not a valid trail JSON document: \(error.description)")
        }
        try self.init(jsonValue: value)
    }

    /// Validates a parsed trail: parsed with ``decimalKeys``, so that `session.sampleRate` reads as billionths.
    /// - Throws: `TrailError` naming the step and field.
    public init(jsonValue: JSONValue) throws(TrailError) {
        let fields = try JSONFields(
            jsonValue, path: "", allowed: ["version", "app", "session", "base", "dropped", "steps", "final"])
        let versionField = try fields.required("version")
        let version = try versionField.int()
        guard version == Trail.currentVersion else {
            throw TrailError(
                .unsupportedVersion, at: "version",
                "trail format version \(version) is not supported; this build reads version \(Trail.currentVersion)")
        }
        let appField = try fields.required("app")
        let appFields = try JSONFields(appField.value, path: "app", allowed: ["bundleID", "version", "build"])
        let app = AppInfo(
            bundleID: try appFields.required("bundleID").string(),
            version: try appFields.required("version").string(),
            build: try appFields.required("build").string())
        let session = try Self.session(try fields.required("session").value)
        var base: NavigationState?
        if let field = fields.optional("base") { base = try NavigationState(jsonValue: field.value, path: "base") }
        var dropped: Int64 = 0
        if let field = fields.optional("dropped") {
            dropped = try field.int()
            guard dropped >= 0 else { throw TrailError(.wrongType, at: "dropped", "dropped must not be negative") }
        }
        let steps = try fields.required("steps").array { (field, path) throws(TrailError) in
            try Step(jsonValue: field.value, path: path)
        }
        var final: NavigationState?
        if let field = fields.optional("final") { final = try NavigationState(jsonValue: field.value, path: "final") }
        self.init(version: version, app: app, session: session, base: base, dropped: dropped, steps: steps, final: final)
        try validateTimes()
    }

    /// The `session` object: `ended` one of the endings, `sampleRate` only with `ended`, above 0 and at most 1.
    private static func session(_ value: JSONValue) throws(TrailError) -> Session {
        let fields = try JSONFields(value, path: "session", allowed: ["id", "started", "pid", "ended", "sampleRate"])
        var session = Session(
            id: try fields.required("id").string(), started: try fields.required("started").string(), pid: try fields.required("pid").int())
        if let field = fields.optional("ended") {
            let text = try field.string()
            guard let ended = Session.Ending(rawValue: text) else {
                throw TrailError(
                    .wrongType, at: "session.ended",
                    "session.ended is \"\(text)\"; it must be \(Session.Ending.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"
                )
            }
            session.ended = ended
        }
        if let field = fields.optional("sampleRate") {
            let billionths = try field.int()
            guard session.ended != nil else {
                throw TrailError(.wrongType, at: "session.sampleRate", "session.sampleRate is given without session.ended")
            }
            guard let rate = SampleRate(billionths: billionths) else {
                throw TrailError(.wrongType, at: "session.sampleRate", "session.sampleRate must be above 0 and at most 1")
            }
            session.sampleRate = rate
        }
        return session
    }

    /// Checks that `t` never decreases and is never negative.
    /// - Throws: `TrailError` naming the first step whose `t` goes back.
    public func validateTimes() throws(TrailError) {
        var previous: Int64 = 0
        for (index, step) in steps.enumerated() {
            if step.t < 0 {
                throw TrailError(
                    .nonMonotonicTime, at: "steps[\(index)].t",
                    "t is \(step.t); times are milliseconds since the session started and cannot be negative")
            }
            if step.t < previous {
                throw TrailError(
                    .nonMonotonicTime, at: "steps[\(index)].t",
                    "t goes back from \(previous) to \(step.t); step times come from a monotonic clock and never decrease")
            }
            previous = step.t
        }
    }
}

extension Step {
    /// Appends the step's canonical JSON (SPEC section 5: keys in code point order, no whitespace) to `out`: the same
    /// bytes as `CanonicalJSON.bytes(of: jsonValue)`, without building the JSON value first.
    package func writeCanonicalJSON(into out: inout [UInt8]) {
        TrailCanonicalWriter.write(self, into: &out)
    }
}
