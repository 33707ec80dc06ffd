import CrashtrailCore
import Testing

/// ``Timestamp``, the one reader of times: every shape the crash formats write, real calendar dates only.
@Suite("Timestamps of every format")
struct TimestampTests {
    @Test(
        "Each shape is read; milliseconds are what a trail keeps, and a report's time keeps the precision given",
        arguments: [
            ("2026-11-02T14:45:05Z", "2026-11-02T14:45:05Z", "2026-11-02T14:45:05Z"),
            ("2026-11-02T14:45:05.120+01:00", "2026-11-02T13:45:05.120Z", "2026-11-02T13:45:05.120Z"),
            ("2022-03-28 10:11:41.6174 +0100", "2022-03-28T09:11:41.617Z", "2022-03-28T09:11:41.6174Z"),
            ("2026-11-02 14:45:05.123456 UTC", "2026-11-02T14:45:05.123Z", "2026-11-02T14:45:05.123456Z"),
            ("2020-10-11 03:59:00 +0000", "2020-10-11T03:59:00Z", "2020-10-11T03:59:00Z"),
            ("1675069636", "2023-01-30T09:07:16Z", "2023-01-30T09:07:16Z"),
            ("1738453554.0676", "2025-02-01T23:45:54.068Z", "2025-02-01T23:45:54.067600Z"),
            ("1716226564474658", "2024-05-20T17:36:04.474Z", "2024-05-20T17:36:04.474658Z"),
            ("1793606400000", "2026-11-02T08:00:00Z", "2026-11-02T08:00:00.000Z"),
        ])
    func normalizes(_ input: String, _ milliseconds: String, _ precise: String) throws {
        let value = try #require(Timestamp.milliseconds(parsing: input))
        #expect(Timestamp.rfc3339(milliseconds: value) == milliseconds)
        #expect(Timestamp.normalized(input) == precise)
    }

    @Test(arguments: ["", "yesterday", "2026-13-02T00:00:00Z", "2026-11-02T14:45", "2026-11-02T14:45:05 +01"])
    func refusesNonsense(_ input: String) {
        #expect(Timestamp.milliseconds(parsing: input) == nil)
    }

    @Test(
        "Dates that do not exist are refused, leap days only in leap years",
        arguments: [
            "2026-02-31T00:00:00Z", "2026-02-29T00:00:00Z", "2023-02-29T12:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
            "2026-06-31T00:00:00Z", "2026-09-31T00:00:00Z", "2026-11-31T00:00:00Z", "2026-01-32T00:00:00Z", "2026-01-00T00:00:00Z",
            "2026-00-10T00:00:00Z", "2022-02-31 10:11:41.6174 +0100",
        ])
    func refusesImpossibleDates(_ input: String) {
        #expect(Timestamp.milliseconds(parsing: input) == nil)
        #expect(Timestamp.normalized(input) == nil)
    }

    @Test(
        "The last day of every month, and leap days of leap years, are read",
        arguments: [
            ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"), ("2000-02-29T23:59:59Z", "2000-02-29T23:59:59Z"),
            ("2026-01-31T00:00:00Z", "2026-01-31T00:00:00Z"), ("2026-02-28T00:00:00Z", "2026-02-28T00:00:00Z"),
            ("2026-04-30T00:00:00Z", "2026-04-30T00:00:00Z"), ("2026-12-31T23:59:59.999Z", "2026-12-31T23:59:59.999Z"),
        ])
    func readsRealDates(_ input: String, _ expected: String) {
        #expect(Timestamp.normalized(input) == expected)
    }

    @Test("Hours run to 23, minutes to 59; a leap second reads as the next minute's first")
    func timeOfDayBounds() {
        #expect(Timestamp.milliseconds(parsing: "2026-11-02T24:00:00Z") == nil)
        #expect(Timestamp.milliseconds(parsing: "2026-11-02T23:60:00Z") == nil)
        #expect(Timestamp.milliseconds(parsing: "2026-11-02T23:59:61Z") == nil)
        #expect(Timestamp.normalized("2026-12-31T23:59:60Z") == "2027-01-01T00:00:00Z")
    }

    @Test(
        "Offsets: Z in either case, UTC, GMT, ±HH:MM and ±HHMM, across midnight and years",
        arguments: [
            ("2026-11-02T14:45:05z", "2026-11-02T14:45:05Z"), ("2026-11-02T14:45:05 GMT", "2026-11-02T14:45:05Z"),
            ("2026-11-02T00:30:00+01:00", "2026-11-01T23:30:00Z"), ("2026-12-31T23:30:00-0130", "2027-01-01T01:00:00Z"),
            ("2026-11-02T14:45:05-00:00", "2026-11-02T14:45:05Z"), ("2026-03-01T00:00:00+00:01", "2026-02-28T23:59:00Z"),
            ("2024-03-01T00:00:00+00:01", "2024-02-29T23:59:00Z"),
        ])
    func offsets(_ input: String, _ expected: String) {
        #expect(Timestamp.normalized(input) == expected)
    }

    @Test(
        "Malformed offsets are refused",
        arguments: ["2026-11-02T14:45:05+1", "2026-11-02T14:45:05+01:0", "2026-11-02T14:45:05 EST", "2026-11-02T14:45:05Zz"])
    func refusesMalformedOffsets(_ input: String) {
        #expect(Timestamp.milliseconds(parsing: input) == nil)
    }

    @Test(
        "Fractional seconds: the digits given kept up to the microsecond, further digits dropped, a comma read as a point",
        arguments: [
            ("2026-11-02T14:45:05.1Z", "2026-11-02T14:45:05.1Z"), ("2026-11-02T14:45:05.12Z", "2026-11-02T14:45:05.12Z"),
            ("2026-11-02T14:45:05.9999999Z", "2026-11-02T14:45:05.999999Z"), ("2026-11-02T14:45:05,5Z", "2026-11-02T14:45:05.5Z"),
            ("2026-11-02T14:45:05.000Z", "2026-11-02T14:45:05.000Z"), ("2026-11-02T14:45:05.Z", "2026-11-02T14:45:05Z"),
        ])
    func fractionalSeconds(_ input: String, _ expected: String) {
        #expect(Timestamp.normalized(input) == expected)
    }

    @Test("The first and last times RFC 3339 can write are read; beyond them is refused")
    func range() {
        #expect(Timestamp.milliseconds(parsing: "0000-01-01T00:00:00Z") == Timestamp.earliestMilliseconds)
        #expect(Timestamp.milliseconds(parsing: "9999-12-31T23:59:59.999Z") == Timestamp.latestMilliseconds)
        #expect(Timestamp.milliseconds(parsing: "9999-12-31T23:59:59-01:00") == nil)
        #expect(Timestamp.milliseconds(parsing: "0000-01-01T00:00:00+01:00") == nil)
    }
}
