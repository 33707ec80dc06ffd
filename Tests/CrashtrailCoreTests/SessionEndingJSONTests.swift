import CrashtrailCore
import Testing

/// A trail's `session.ended` and `session.sampleRate` (SPEC section 20): read, written canonically, and refused when
/// wrong, with the one fractional number a trail holds read exactly.
@Suite("Trail JSON: how the session ended")
struct SessionEndingJSONTests {
    static func trail(session: String) -> String {
        #"{"version":1,"app":{"bundleID":"com.example.piratebay","version":"3.1.0","build":"412"},"session":"#
            + session + #","steps":[]}"#
    }

    @Test(
        "The ending and the rate are read and written canonically, the rate as its shortest decimal",
        arguments: [("0.25", "0.25"), ("0.250", "0.25"), ("1", "1"), ("1.0", "1"), ("0.000000001", "0.000000001"), ("0.1", "0.1")])
    func readsAndWrites(rate: String, canonical: String) throws {
        let text = Self.trail(session: #"{"id":"S","started":"2026-11-28T10:00:00Z","pid":7,"ended":"exited","sampleRate":"# + rate + "}")
        let trail = try Trail(json: Array(text.utf8))
        #expect(trail.session.ended == .exited)
        #expect(trail.session.sampleRate?.description == canonical)
        #expect(
            trail.canonicalJSONString.contains(
                #""session":{"ended":"exited","id":"S","pid":7,"sampleRate":"# + canonical + #","started":"2026-11-28T10:00:00Z"}"#),
            "\(trail.canonicalJSONString)")
        #expect(try Trail(json: trail.canonicalJSON) == trail)
    }

    @Test("A destination's own sampleRate stays an integer; only the session's is a decimal")
    func onlyTheSessionsRate() throws {
        let text =
            #"{"version":1,"app":{"bundleID":"b","version":"1","build":"1"},"session":{"id":"S","started":"2026-11-28T10:00:00Z","pid":7,"ended":"exited","sampleRate":0.5},"steps":[{"t":1,"op":"push","to":{"audio":{"sampleRate":44100}}}]}"#
        let trail = try Trail(json: Array(text.utf8))
        #expect(trail.canonicalJSONString.contains(#"{"audio":{"sampleRate":44100}}"#), "\(trail.canonicalJSONString)")
        #expect(trail.session.sampleRate?.description == "0.5")
        let fraction = text.replacingOccurrences(of: "44100", with: "0.5")
        #expect(throws: TrailError.self) { try Trail(json: Array(fraction.utf8)) }
    }

    @Test("A trail without them is written as before")
    func absent() throws {
        let trail = try Trail(json: Array(Self.trail(session: #"{"id":"S","started":"2026-11-28T10:00:00Z","pid":7}"#).utf8))
        #expect(trail.session.ended == nil)
        #expect(trail.canonicalJSONString.contains(#""session":{"id":"S","pid":7,"started":"2026-11-28T10:00:00Z"}"#))
    }

    @Test(
        "Wrong endings and rates are refused, naming the field",
        arguments: [
            (#""ended":"paused""#, "session.ended"), (#""ended":"killed","sampleRate":0"#, "session.sampleRate"),
            (#""ended":"killed","sampleRate":1.5"#, "session.sampleRate"), (#""sampleRate":0.5"#, "session.sampleRate"),
            (#""ended":"killed","sampleRate":-0.5"#, "session.sampleRate"), (#""ended":3"#, "session.ended"),
        ])
    func refusals(fields: String, path: String) {
        let text = Self.trail(session: #"{"id":"S","started":"2026-11-28T10:00:00Z","pid":7,"# + fields + "}")
        #expect {
            try Trail(json: Array(text.utf8))
        } throws: { error in
            (error as? TrailError)?.path == path
        }
    }

    @Test(
        "An exponent, more than nine decimals, or a fraction anywhere else is invalid JSON",
        arguments: [#""ended":"killed","sampleRate":1e-3"#, #""ended":"killed","sampleRate":0.0000000001"#, #""pid":7.5"#])
    func invalidNumbers(fields: String) {
        let text = Self.trail(
            session: #"{"id":"S","started":"2026-11-28T10:00:00Z","# + (fields.contains("pid") ? "" : #""pid":7,"#) + fields + "}")
        #expect {
            try Trail(json: Array(text.utf8))
        } throws: { error in
            (error as? TrailError)?.code == .invalidJSON
        }
    }
}
