import CrashtrailCore
import Testing

/// SPEC section 5: what a trail may hold, each refusal naming the step and field, and the canonical form.
@Suite("Trail validation and canonical JSON")
struct TrailValidationTests {
    static let head =
        #""version":1,"app":{"bundleID":"com.example.piratebay","version":"3.1.0","build":"412"},"session":{"id":"4D1FE12F","started":"2026-11-02T14:45:05Z","pid":31922}"#

    static func trail(steps: String, extra: String = "") -> String {
        "{\(head),\"steps\":[\(steps)]\(extra)}"
    }

    @Test("The spec's example trail reads and writes canonically")
    func specExample() throws {
        let text = """
            {
              "version": 1,
              "app": {"bundleID": "com.example.piratebay", "version": "3.1.0", "build": "412"},
              "session": {"id": "4D1FE12F-9EEE-4537-8DF6-791B7586D554", "started": "2026-11-02T14:45:05Z", "pid": 31922},
              "base": {"tab": 0, "stacks": [[{"home":{}}],[{"marketplace":{}}],[{"myProfile":{}}]], "modals": []},
              "steps": [
                {"t": 1258, "op": "push", "to": {"item": {"id": "L-65586"}}},
                {"t": 9100, "op": "open", "url": "piratebay://item/L-9"},
                {"t": 26000, "op": "revoke", "condition": "signedIn"}
              ]
            }
            """
        let trail = try Trail(json: Array(text.utf8))
        #expect(trail.dropped == 0)
        #expect(trail.base?.conditions == [])
        #expect(trail.base?.pending == nil)
        #expect(
            trail.canonicalJSONString
                == #"{"app":{"build":"412","bundleID":"com.example.piratebay","version":"3.1.0"},"base":{"conditions":[],"modals":[],"pending":null,"stacks":[[{"home":{}}],[{"marketplace":{}}],[{"myProfile":{}}]],"tab":0},"dropped":0,"session":{"id":"4D1FE12F-9EEE-4537-8DF6-791B7586D554","pid":31922,"started":"2026-11-02T14:45:05Z"},"steps":[{"op":"push","t":1258,"to":{"item":{"id":"L-65586"}}},{"op":"open","t":9100,"url":"piratebay://item/L-9"},{"condition":"signedIn","op":"revoke","t":26000}],"version":1}"#
        )
        #expect(try Trail(json: trail.canonicalJSON) == trail)
    }

    @Test("Canonical strings escape only quote, backslash and control characters")
    func canonicalEscapes() throws {
        let value: JSONValue = ["b": "a\"\\/\u{7F}é😀\n\t\u{01}", "a": 1, "é": true, "Z": nil]
        #expect(CanonicalJSON.string(of: value) == "{\"Z\":null,\"a\":1,\"b\":\"a\\\"\\\\/\u{7F}é😀\\n\\t\\u0001\",\"é\":true}")
        #expect(try JSONParser.parse(CanonicalJSON.bytes(of: value)) == value)
    }

    /// An invalid trail and what the error must name.
    struct Invalid: CustomTestStringConvertible, Sendable {
        let name: String
        let json: String
        let code: TrailError.Code
        let step: Int?
        let mentions: String
        var testDescription: String { name }
    }

    static let push = #"{"t":0,"op":"push","to":{"home":{}}}"#

    static let invalid: [Invalid] = [
        Invalid(
            name: "time goes back", json: trail(steps: push + #",{"t":50,"op":"pop"},{"t":40,"op":"pop"}"#),
            code: .nonMonotonicTime, step: 2, mentions: "from 50 to 40"),
        Invalid(name: "negative time", json: trail(steps: #"{"t":-1,"op":"pop"}"#), code: .nonMonotonicTime, step: 0, mentions: "-1"),
        Invalid(
            name: "unknown op", json: trail(steps: push + #",{"t":1,"op":"teleport"}"#), code: .unknownOp, step: 1, mentions: "teleport"),
        Invalid(name: "missing op", json: trail(steps: #"{"t":1}"#), code: .missingField, step: 0, mentions: "op"),
        Invalid(name: "missing to", json: trail(steps: #"{"t":1,"op":"push"}"#), code: .missingField, step: 0, mentions: "to"),
        Invalid(name: "missing t", json: trail(steps: #"{"op":"pop"}"#), code: .missingField, step: 0, mentions: "\"t\""),
        Invalid(
            name: "extra field on a step", json: trail(steps: #"{"t":1,"op":"pop","to":{"home":{}}}"#),
            code: .unknownField, step: 0, mentions: "\"to\""),
        Invalid(
            name: "open with both to and url", json: trail(steps: #"{"t":1,"op":"open","to":{"home":{}},"url":"x://y"}"#),
            code: .unknownField, step: 0, mentions: "both"),
        Invalid(name: "open with neither", json: trail(steps: #"{"t":1,"op":"open"}"#), code: .missingField, step: 0, mentions: "neither"),
        Invalid(
            name: "mistyped tab", json: trail(steps: #"{"t":1,"op":"select","tab":"1"}"#), code: .wrongType, step: 0, mentions: "integer"),
        Invalid(
            name: "mistyped success", json: trail(steps: #"{"t":1,"op":"complete","success":1}"#), code: .wrongType, step: 0,
            mentions: "boolean"),
        Invalid(
            name: "mistyped condition", json: trail(steps: #"{"t":1,"op":"satisfy","condition":null}"#), code: .wrongType, step: 0,
            mentions: "string"),
        Invalid(
            name: "destination with two keys", json: trail(steps: #"{"t":1,"op":"push","to":{"a":{},"b":{}}}"#),
            code: .invalidDestination, step: 0, mentions: "exactly one key"),
        Invalid(
            name: "destination whose value is not an object", json: trail(steps: #"{"t":1,"op":"push","to":{"item":"L-1"}}"#),
            code: .invalidDestination, step: 0, mentions: "object"),
        Invalid(
            name: "destination that is a string", json: trail(steps: #"{"t":1,"op":"push","to":"home"}"#),
            code: .invalidDestination, step: 0, mentions: "a string"),
        Invalid(
            name: "fractional number", json: trail(steps: #"{"t":1.5,"op":"pop"}"#), code: .invalidJSON, step: nil, mentions: "fractional"),
        Invalid(
            name: "integer beyond 64 bits", json: trail(steps: #"{"t":99999999999999999999,"op":"pop"}"#),
            code: .invalidJSON, step: nil, mentions: "64 bits"),
        Invalid(
            name: "duplicate keys", json: trail(steps: #"{"t":1,"t":2,"op":"pop"}"#), code: .invalidJSON, step: nil,
            mentions: "duplicate key"),
        Invalid(
            name: "lone surrogate", json: trail(steps: #"{"t":1,"op":"satisfy","condition":"\ud800"}"#),
            code: .invalidJSON, step: nil, mentions: "surrogate"),
        Invalid(
            name: "unknown top-level field", json: trail(steps: "", extra: #","crash":true"#), code: .unknownField, step: nil,
            mentions: "crash"),
        Invalid(
            name: "unknown field in a state",
            json: trail(steps: "", extra: #","base":{"tab":0,"stacks":[[{"home":{}}]],"modals":[],"selected":1}"#),
            code: .unknownField, step: nil, mentions: "selected"),
        Invalid(
            name: "tab out of range",
            json: trail(steps: "", extra: #","base":{"tab":3,"stacks":[[{"home":{}}]],"modals":[]}"#),
            code: .invalidState, step: nil, mentions: "out of range"),
        Invalid(
            name: "empty stack",
            json: trail(steps: "", extra: #","final":{"tab":0,"stacks":[[]],"modals":[]}"#),
            code: .invalidState, step: nil, mentions: "empty"),
        Invalid(
            name: "empty modal",
            json: trail(steps: "", extra: #","final":{"tab":0,"stacks":[[{"home":{}}]],"modals":[[]]}"#),
            code: .invalidState, step: nil, mentions: "empty"),
        Invalid(
            name: "unsupported version",
            json: #"{"version":2,"#.appending(String(head.dropFirst(#""version":1,"#.count))) + #","steps":[]}"#,
            code: .unsupportedVersion, step: nil, mentions: "version 2"),
        Invalid(name: "not JSON", json: "{\"version\":1,", code: .invalidJSON, step: nil, mentions: "line 1"),
    ]

    @Test("Each invalid trail gets its own clear error", arguments: invalid)
    func refuses(_ invalid: Invalid) throws {
        let error = try #require(throws: TrailError.self) { try Trail(json: Array(invalid.json.utf8)) }
        #expect(error.code == invalid.code, "\(error)")
        #expect(error.step == invalid.step, "\(error)")
        #expect(error.description.contains(invalid.mentions), "\(error)")
    }

    @Test("Invalid UTF-8 and NUL bytes are refused, never crash")
    func invalidBytes() throws {
        var bytes = Array(Self.trail(steps: #"{"t":1,"op":"satisfy","condition":"ok"}"#).utf8)
        let index = try #require(bytes.firstIndex(of: UInt8(ascii: "k")))
        bytes[index] = 0xFF
        #expect(throws: TrailError.self) { try Trail(json: bytes) }
        bytes[index] = 0x00
        #expect(throws: TrailError.self) { try Trail(json: bytes) }
    }

    @Test("Deep nesting is refused without exhausting the stack")
    func deepNesting() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        #expect(error.code == .tooDeep)
    }

    @Test("Int64 extremes parse; one past them does not")
    func integerRange() throws {
        #expect(try JSONParser.parse("9223372036854775807") == .int(.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .int(.min))
        #expect(throws: JSONParseError.self) { try JSONParser.parse("9223372036854775808") }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("-9223372036854775809") }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("1e3") }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("01") }
    }
}
