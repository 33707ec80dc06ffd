import CrashtrailCore

/// A time a command-line option names: a date (`2026-11-02`, UTC) or an RFC 3339 time.
package struct TimeBound {
    /// Milliseconds since 1970 UTC.
    package let milliseconds: Int64

    /// Reads `text`; a date stands for its first millisecond, or its last when `endOfDay` is set.
    /// - Returns: nil when `text` is neither a date nor an RFC 3339 time.
    package init?(_ text: String, endOfDay: Bool) {
        let isDate =
            text.utf8.count == 10
            && text.utf8.enumerated().allSatisfy { index, byte in
                index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
        if isDate {
            guard let start = Timestamp.milliseconds(parsing: text + "T00:00:00Z"),
                Timestamp.rfc3339(milliseconds: start).hasPrefix(text)
            else { return nil }
            milliseconds = endOfDay ? start + 86_400_000 - 1 : start
        } else {
            guard text.contains("T"), let value = Timestamp.milliseconds(parsing: text) else { return nil }
            milliseconds = value
        }
    }
}
