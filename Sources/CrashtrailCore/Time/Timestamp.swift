/// Reads the timestamps crash formats and trails write, and writes RFC 3339 UTC: the one reader of times in the
/// package, so the collector, the trail codec and the command line agree on what a time is.
///
/// Reads `2026-11-02T14:45:05Z`, `2026-11-02T14:45:05.123+01:00`, `.ips`'s `2022-03-28 10:11:41.6174 +0100`,
/// BigQuery's `2026-11-02 14:45:05.123456 UTC`, and epoch numbers in seconds, milliseconds or microseconds. A date
/// must exist in the proleptic Gregorian calendar (`2026-02-31` and `2023-02-29` are refused, `2024-02-29` is read),
/// hours run 00 to 23, and a second of 60 (a leap second) is read as the first second of the next minute. It reads
/// the UTF-8 bytes in place, without `DateFormatter`: collectors call it for every report they ingest.
public enum Timestamp {
    /// Milliseconds since 1970 UTC, or nil when `text` is not a timestamp of a known shape, or names a date or time
    /// that does not exist.
    public static func milliseconds(parsing text: String) -> Int64? {
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            if bytes.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 }) {
                return Double(text).flatMap(milliseconds(epoch:))
            }
            var reader = Reader(bytes: bytes)
            return reader.readTime()
        }
    }

    /// Milliseconds since 1970 from an epoch number in seconds, milliseconds or microseconds (by magnitude).
    ///
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
    package static let earliestMilliseconds: Int64 = -62_167_219_200_000
    /// 9999-12-31T23:59:59.999Z, the last time RFC 3339 can write.
    package static let latestMilliseconds: Int64 = 253_402_300_799_999

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

    /// Any readable timestamp as RFC 3339 UTC keeping the precision the text gives, to the microsecond (SPEC section
    /// 8), or nil when `text` is nil or not readable.
    ///
    /// `.ips`'s `2022-03-28 10:11:41.6174 +0100` is `2022-03-28T09:11:41.6174Z`; Sentry's `1738453554.0676` (epoch
    /// seconds) is `2025-02-01T23:45:54.067600Z`, six digits as an epoch number's fraction is read; digits past the
    /// microsecond are dropped.
    public static func normalized(_ text: String?) -> String? {
        guard let text else { return nil }
        var contiguous = text
        let precise: (microseconds: Int64, digits: Int)? = contiguous.withUTF8 { bytes in
            if bytes.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 }) { return epochMicroseconds(bytes) }
            var reader = Reader(bytes: bytes)
            return reader.readPreciseTime()
        }
        return precise.map { rfc3339(microseconds: $0.microseconds, fractionDigits: $0.digits) }
    }

    /// RFC 3339 UTC with `fractionDigits` digits of the second's fraction (0 to 6).
    public static func rfc3339(microseconds: Int64, fractionDigits: Int) -> String {
        let milliseconds = CivilCalendar.floorDivide(microseconds, 1000)
        let whole = rfc3339(milliseconds: CivilCalendar.floorDivide(milliseconds, 1000) * 1000).dropLast()
        let fraction = microseconds - CivilCalendar.floorDivide(microseconds, 1_000_000) * 1_000_000
        let digits = min(6, max(0, fractionDigits))
        guard digits > 0 else { return whole + "Z" }
        let padded = String(fraction)
        let six = String(repeating: "0", count: 6 - padded.count) + padded
        return whole + "." + six.prefix(digits) + "Z"
    }

    /// An epoch number's microseconds and the fraction digits to write: seconds with a fraction six, whole seconds none,
    /// milliseconds three, microseconds six (told by magnitude, as ``milliseconds(epoch:)`` tells them); nil for anything
    /// else.
    private static func epochMicroseconds(_ bytes: UnsafeBufferPointer<UInt8>) -> (microseconds: Int64, digits: Int)? {
        let parts = bytes.split(separator: 46, omittingEmptySubsequences: false)
        guard parts.count <= 2, let integerPart = parts.first, !integerPart.isEmpty, integerPart.count <= 18 else { return nil }
        let integer = integerPart.reduce(Int64(0)) { $0 * 10 + Int64($1 - 48) }
        var fraction: Int64 = 0
        var scale: Int64 = 100_000
        for byte in parts.count == 2 ? Array(parts[1]) : [] where scale > 0 {
            fraction += Int64(byte - 48) * scale
            scale /= 10
        }
        let result: (microseconds: Int64, digits: Int)
        if integer >= 100_000_000_000_000 {
            result = (integer, 6)
        } else if integer >= 100_000_000_000 {
            result = (integer * 1000 + fraction / 1000, 3)
        } else {
            result = (integer * 1_000_000 + fraction, parts.count == 2 ? 6 : 0)
        }
        guard result.microseconds <= latestMilliseconds * 1000 else { return nil }
        return result
    }

    /// The days of `month` (1 to 12) in `year`, by the proleptic Gregorian calendar's leap years.
    package static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Reads one date and time from UTF-8 bytes, front to back.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        /// The time the bytes hold, in milliseconds since 1970 UTC, or nil.
        mutating func readTime() -> Int64? {
            readPreciseTime().map { CivilCalendar.floorDivide($0.microseconds, 1000) }
        }

        /// The time the bytes hold, in microseconds since 1970 UTC, and how many digits its fraction gave (at most six);
        /// nil when they hold none.
        mutating func readPreciseTime() -> (microseconds: Int64, digits: Int)? {
            guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
                expect("T t"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
                let second = number(2)
            else { return nil }
            let (micros, digits) = readFraction()
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
            guard let offsetMinutes = readOffset() else { return nil }
            guard (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year), hour < 24, minute < 60,
                second < 61
            else { return nil }
            let days = CivilCalendar.days(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
            let result = seconds * 1_000_000 + micros
            guard (Timestamp.earliestMilliseconds * 1000...Timestamp.latestMilliseconds * 1000 + 999).contains(result) else { return nil }
            return (result, digits)
        }

        /// The microseconds of a fraction of a second after `.` or `,`, and how many digits it had up to six (further
        /// digits are read and dropped), else 0 and 0.
        private mutating func readFraction() -> (microseconds: Int64, digits: Int) {
            guard index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") else { return (0, 0) }
            index += 1
            var micros: Int64 = 0
            var scale: Int64 = 100_000
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                micros += Int64(bytes[index] - 48) * scale
                scale /= 10
                if digits < 6 { digits += 1 }
                index += 1
            }
            return (micros, digits)
        }

        /// The offset from UTC in minutes that ends the text: none, `Z`, `UTC`, `GMT`, `±HH:MM` or `±HHMM`; nil
        /// for anything else.
        private mutating func readOffset() -> Int64? {
            guard index < bytes.count else { return 0 }
            let rest = UnsafeBufferPointer(rebasing: bytes[index...])
            if rest.elementsEqual("Z".utf8) || rest.elementsEqual("z".utf8) || rest.elementsEqual("UTC".utf8)
                || rest.elementsEqual("GMT".utf8)
            {
                return 0
            }
            guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return nil }
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = expect(":")
            guard let minutes = number(2), index == bytes.count else { return nil }
            return sign * (hours * 60 + minutes)
        }

        /// The decimal number of the next `digits` bytes, or nil when one is not a digit.
        private mutating func number(_ digits: Int) -> Int64? {
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

        /// Steps over the next byte when it is one of `characters`.
        private mutating func expect(_ characters: StaticString) -> Bool {
            guard index < bytes.count else { return false }
            let found = characters.withUTF8Buffer { $0.contains(bytes[index]) }
            if found { index += 1 }
            return found
        }
    }
}
