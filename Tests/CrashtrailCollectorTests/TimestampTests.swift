import CrashtrailCollector
import CrashtrailCore
import CrashtrailStore
import Testing

@Suite("Timestamps of every format")
struct TimestampTests {
    @Test(
        arguments: [
            ("2026-11-02T14:45:05Z", "2026-11-02T14:45:05Z"),
            ("2026-11-02T14:45:05.120+01:00", "2026-11-02T13:45:05.120Z"),
            ("2022-03-28 10:11:41.6174 +0100", "2022-03-28T09:11:41.617Z"),
            ("2026-11-02 14:45:05.123456 UTC", "2026-11-02T14:45:05.123Z"),
            ("2020-10-11 03:59:00 +0000", "2020-10-11T03:59:00Z"),
            ("1675069636", "2023-01-30T09:07:16Z"),
            ("1716226564474658", "2024-05-20T17:36:04.474Z"),
            ("1793606400000", "2026-11-02T08:00:00Z"),
        ])
    func normalizes(_ input: String, _ expected: String) throws {
        let milliseconds = try #require(Timestamp.milliseconds(parsing: input))
        #expect(Timestamp.rfc3339(milliseconds: milliseconds) == expected)
    }

    @Test(arguments: ["", "yesterday", "2026-13-02T00:00:00Z", "2026-11-02T14:45", "2026-11-02T14:45:05 +01"])
    func refusesNonsense(_ input: String) {
        #expect(Timestamp.milliseconds(parsing: input) == nil)
    }
}
