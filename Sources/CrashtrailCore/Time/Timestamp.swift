import CrashtrailCore

/// Reads the timestamps crash formats write and writes RFC 3339 UTC, without `DateFormatter` (slow and not
/// needed for these fixed shapes).
///
/// Reads `2026-11-02T14:45:05Z`, `2026-11-02T14:45:05.123+01:00`, `.ips`'s `2022-03-28 10:11:41.6174 +0100`,
/// BigQuery's `2026-11-02 14:45:05.123456 UTC`, and epoch numbers in seconds, milliseconds or microseconds.
public enum Timestamp {
    /// Milliseconds since 1970 UTC, or nil when `text` is not a timestamp of a known shape.
    public static func milliseconds(parsing text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int64? {
            guard index + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for offset in 0..<digits {
                let byte = bytes[index + offset]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += digits
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        if bytes.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 }), let value = Double(text) {
            return milliseconds(epoch: value)
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("T t"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        var millis: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
            index += 1
            var scale: Int64 = 100
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                millis += Int64(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        var offsetMinutes: Int64 = 0
        if index < bytes.count {
            let rest = String(decoding: bytes[index...], as: UTF8.self)
            if rest == "Z" || rest == "z" || rest == "UTC" || rest == "GMT" {
                offsetMinutes = 0
            } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let hours = number(2) else { return nil }
                _ = expect(":")
                guard let minutes = number(2), index == bytes.count else { return nil }
                offsetMinutes = sign * (hours * 60 + minutes)
            } else {
                return nil
            }
        }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        let result = seconds * 1000 + millis
        return (earliestMilliseconds...latestMilliseconds).contains(result) ? result : nil
    }

    /// Milliseconds since 1970 from an epoch number in seconds, milliseconds or microseconds (by magnitude).
    /// Values that would fall after the year 9999 are refused (nil), never trapped on.
    public static func milliseconds(epoch value: Double) -> Int64? {
        guard value.isFinite, value >= 0 else { return nil }
        let milliseconds: Double
        if value >= 1e14 {
            milliseconds = (value / 1000).rounded(.down)  // microseconds
        } else if value >= 1e11 {
            milliseconds = value.rounded(.down)  // milliseconds
        } else {
            milliseconds = (value * 1000).rounded()  // seconds
        }
        guard milliseconds <= Double(latestMilliseconds) else { return nil }
        return Int64(exactly: milliseconds)
    }

    /// 0000-01-01T00:00:00Z, the first time RFC 3339 can write.
    static let earliestMilliseconds: Int64 = -62_167_219_200_000
    /// 9999-12-31T23:59:59.999Z, the last time RFC 3339 can write.
    static let latestMilliseconds: Int64 = 253_402_300_799_999

    /// RFC 3339 UTC, with milliseconds only when there are some: `2026-11-02T14:45:05Z`.
    public static func rfc3339(milliseconds: Int64) -> String {
        let seconds = CivilCalendar.floorDivide(milliseconds, 1000)
        let millis = milliseconds - seconds * 1000
        let days = CivilCalendar.floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
        text += "\(pad(secondOfDay % 3600 / 60, 2)):\(pad(secondOfDay % 60, 2))"
        if millis != 0 { text += ".\(pad(millis, 3))" }
        return text + "Z"
    }

    /// Normalizes any readable timestamp to RFC 3339 UTC.
    public static func normalized(_ text: String?) -> String? {
        text.flatMap(milliseconds(parsing:)).map(rfc3339(milliseconds:))
    }
}

