import CrashtrailCore
import CrashtrailReports
import Testing

/// How `serve` counts the `session` and `sessions` items of Sentry envelopes (SPEC section 20), on the payloads
/// Sentry's Python SDK 2.x sends (recorded from it) and the updates mobile SDKs send.
@Suite("Session counts from Sentry's items")
struct SessionTallyTests {
    static let release = "com.example.app@1.2.0+7"

    static func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8), ignoredNumberKeys: ["duration"])
    }

    @Test("One item per kind of ending, as sentry-sdk sends them: started, crashed, abnormal, errored and users")
    func pythonSDKItems() throws {
        // Given the items sentry-sdk 2.75 sent for five sessions (recorded; sids shortened)
        let items = [
            #"{"sid":"c1136b68","init":true,"started":"2026-11-28T20:53:09.833670Z","timestamp":"2026-11-28T20:53:09.833694Z","status":"exited","did":"user-0","attrs":{"release":"com.example.app@1.2.0+7","environment":"production"}}"#,
            #"{"sid":"bafe39fc","init":true,"started":"2026-11-28T20:53:36.055980Z","timestamp":"2026-11-28T20:53:36.058540Z","status":"exited","errors":1,"did":"user-1","attrs":{"release":"com.example.app@1.2.0+7","environment":"production"}}"#,
            #"{"sid":"22d5c32d","init":true,"started":"2026-11-28T20:53:36.1Z","timestamp":"2026-11-28T20:53:36.2Z","status":"crashed","errors":1,"did":"user-2","attrs":{"release":"com.example.app@1.2.0+7","environment":"production"}}"#,
            #"{"sid":"390c67aa","init":true,"started":"2026-11-28T20:53:36.3Z","timestamp":"2026-11-28T20:53:36.4Z","status":"crashed","did":"user-3","attrs":{"release":"com.example.app@1.2.0+7","environment":"production"}}"#,
            #"{"sid":"b21118f7","init":true,"started":"2026-11-28T20:53:36.5Z","timestamp":"2026-11-28T20:53:36.6Z","status":"abnormal","did":"user-4","attrs":{"release":"com.example.app@1.2.0+7","environment":"production"}}"#,
        ]

        // When
        var tally = SessionTally()
        for item in items { try tally.add(update: try Self.parse(item)) }

        // Then
        let hour = try #require(Timestamp.milliseconds(parsing: "2026-11-28T20:00:00Z")) / 3_600_000
        let counts = try #require(tally.buckets[SessionTally.Bucket(release: Self.release, environment: "production", hour: hour)])
        #expect(tally.buckets.count == 1)
        #expect(counts.started == 5)
        #expect(counts.crashed == 2)
        #expect(counts.abnormal == 1)
        #expect(counts.errored == 1)
        #expect(counts.users.estimate == 5)
        #expect(counts.crashedUsers.estimate == 2)
    }

    @Test("An update sent again counts once: in one tally, across tallies merged, and against what the store saw")
    func repeatedUpdatesCountOnce() throws {
        // Given a session's first update and its crash, each sent twice (an SDK's retry after a lost answer)
        let attrs = #""attrs":{"release":"com.example.app@1.2.0+7"}"#
        let start = try Self.parse(#"{"sid":"s2","did":"d2","init":true,"started":"2026-11-28T10:00:00Z","status":"ok",\#(attrs)}"#)
        let crash = try Self.parse(#"{"sid":"s2","did":"d2","init":false,"started":"2026-11-28T10:00:00Z","status":"crashed",\#(attrs)}"#)

        // When one tally takes them all
        var one = SessionTally()
        for update in [start, start, crash, crash] { try one.add(update: update) }
        // Then the session is started and crashed once
        var counts = try #require(one.buckets.values.first)
        #expect((counts.started, counts.crashed) == (1, 1))
        #expect(
            one.sessions["s2"] == SessionTally.SessionUpdate(bucket: try #require(one.buckets.keys.first), started: true, ending: .crashed))

        // When two tallies, each with the start and the crash once, are merged
        var first = SessionTally()
        try first.add(update: start)
        var second = SessionTally()
        try second.add(update: start)
        try second.add(update: crash)
        first.add(second)
        // Then too
        counts = try #require(first.buckets.values.first)
        #expect((counts.started, counts.crashed) == (1, 1))

        // When the store saw its start before, and the tally holds the start again and the crash
        var later = SessionTally()
        try later.add(update: start)
        try later.add(update: crash)
        later.discount(seen: ["s2": SessionTally.SeenSession(started: true, ended: false)])
        // Then only the crash is new
        counts = try #require(later.buckets.values.first)
        #expect((counts.started, counts.crashed) == (0, 1))
        #expect(counts.users.estimate == 1)
    }

    @Test("A session's updates count once: its start by init, its end by its status")
    func updatesCountOnce() throws {
        // Given a session sent as a mobile SDK sends it: started, an update with an error, then its end
        let attrs = #""attrs":{"release":"com.example.app@1.2.0+7"}"#
        let updates = [
            #"{"sid":"s1","did":"d1","init":true,"seq":0,"started":"2026-11-28T10:00:00Z","status":"ok",\#(attrs)}"#,
            #"{"sid":"s1","did":"d1","init":false,"seq":1,"started":"2026-11-28T10:00:00Z","status":"ok","errors":1,\#(attrs)}"#,
            #"{"sid":"s1","did":"d1","init":false,"seq":2,"started":"2026-11-28T10:00:00Z","status":"exited","errors":1,"duration":61.25,\#(attrs)}"#,
        ]

        // When
        var tally = SessionTally()
        for update in updates { try tally.add(update: try Self.parse(update)) }

        // Then
        let counts = try #require(tally.buckets.values.first)
        #expect(counts.started == 1)
        #expect(counts.errored == 1)
        #expect(counts.crashed == 0)
        #expect(counts.users.estimate == 1)
        #expect(tally.buckets.keys.first?.environment == "")
        #expect(tally.buckets.keys.first?.hour == (try #require(Timestamp.milliseconds(parsing: "2026-11-28T10:00:00Z"))) / 3_600_000)
    }

    @Test("sessions aggregates, as sentry-sdk's request mode sends them")
    func aggregates() throws {
        // Given the aggregate item sentry-sdk sent for 4 exited, 2 errored, 1 crashed and 1 abnormal sessions
        let item =
            #"{"attrs":{"environment":"production","release":"com.example.app@1.2.0+7"},"aggregates":[{"started":"2026-11-28T20:53:00.000000Z","exited":4,"errored":2,"crashed":1,"abnormal":1},{"started":"2026-11-28T21:01:00Z","did":"u9","exited":1}]}"#

        // When
        var tally = SessionTally()
        try tally.add(aggregate: try Self.parse(item))

        // Then: two hours
        let byHour = tally.buckets.sorted { $0.key < $1.key }.map(\.value)
        #expect(byHour.count == 2)
        #expect(byHour.first?.started == 8)
        #expect(byHour.first?.crashed == 1)
        #expect(byHour.first?.abnormal == 1)
        #expect(byHour.first?.errored == 2)
        #expect(byHour.last?.started == 1)
        #expect(byHour.last?.users.estimate == 1)
    }

    @Test("A duration in any JSON number form is read past, as sentry-cocoa and Java SDKs write it")
    func durations() throws {
        var tally = SessionTally()
        for (index, duration) in ["12.345678901234567", "1.0E-4", "-0.5e+3", "7"].enumerated() {
            let item =
                #"{"sid":"d\#(index)","init":true,"started":"2026-11-28T10:00:00Z","status":"exited","duration":\#(duration),"attrs":{"release":"r"}}"#
            try tally.add(update: try Self.parse(item))
        }
        #expect(tally.buckets.values.first?.started == 4)
    }

    @Test("Only starts within Sentry's window count; counts saturate instead of trapping; an item of too many entries is refused")
    func bounds() throws {
        let now = try #require(Timestamp.milliseconds(parsing: "2026-11-28T12:00:00Z"))
        var tally = SessionTally(accepted: SessionTally.window(at: now))
        try tally.add(update: try Self.parse(#"{"init":true,"started":"2026-11-24T12:00:00Z","status":"ok","attrs":{"release":"r"}}"#))
        #expect(throws: SessionTally.ItemError.self) {
            try tally.add(update: try Self.parse(#"{"init":true,"started":"2026-11-20T12:00:00Z","status":"ok","attrs":{"release":"r"}}"#))
        }
        #expect(throws: SessionTally.ItemError.self) {
            try tally.add(update: try Self.parse(#"{"init":true,"started":"2026-11-28T14:00:00Z","status":"ok","attrs":{"release":"r"}}"#))
        }
        // Hostile aggregates can add up past Int64: the count stops at Int64.max.
        var counts = SessionTally.Counts()
        counts.crashed = Int64.max - 1
        var more = SessionTally.Counts()
        more.crashed = 1 << 40
        counts.add(more)
        #expect(counts.crashed == Int64.max)
        var huge = SessionTally()
        let entry = #"{"started":"2026-11-28T10:00:00Z","crashed":1099511627776}"#
        let tooMany = #"{"attrs":{"release":"r"},"aggregates":["# + Array(repeating: entry, count: 1001).joined(separator: ",") + "]}"
        #expect(throws: SessionTally.ItemError.self) { try huge.add(aggregate: try Self.parse(tooMany)) }
        #expect(tally.buckets.values.first?.started == 1)
    }

    @Test("Items Sentry would drop are refused with the reason")
    func refusals() throws {
        var tally = SessionTally()
        #expect(throws: SessionTally.ItemError.self) {
            try tally.add(update: try Self.parse(#"{"sid":"a","init":true,"started":"2026-11-28T10:00:00Z"}"#))
        }
        #expect(throws: SessionTally.ItemError.self) {
            try tally.add(update: try Self.parse(#"{"init":true,"status":"ok","attrs":{"release":"r"}}"#))
        }
        #expect(throws: SessionTally.ItemError.self) {
            try tally.add(
                update: try Self.parse(#"{"init":true,"started":"2026-11-28T10:00:00Z","status":"melted","attrs":{"release":"r"}}"#))
        }
        #expect(throws: SessionTally.ItemError.self) {
            try tally.add(
                aggregate: try Self.parse(#"{"attrs":{"release":"r"},"aggregates":[{"started":"2026-11-28T10:00:00Z","exited":-1}]}"#))
        }
        #expect(tally.isEmpty)
    }
}
