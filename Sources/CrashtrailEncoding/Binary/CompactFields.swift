import CrashtrailCore

/// Compact exact forms of the session's UUID and start time: used only when printing the compact form gives
/// back the very same text, so the binary form stays lossless.
enum CompactFields {
    /// The 16 bytes of a UUID written `8-4-4-4-12` in hex of one case, and whether the letters were upper case.
    static func uuidBytes(_ text: String) -> (bytes: [UInt8], upper: Bool)? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var sawUpper = false
        var sawLower = false
        var high: UInt8?
        for (index, character) in utf8.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                nibble = character - UInt8(ascii: "A") + 10
                sawUpper = true
            case UInt8(ascii: "a")...UInt8(ascii: "f"):
                nibble = character - UInt8(ascii: "a") + 10
                sawLower = true
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        if sawUpper && sawLower { return nil }
        return (bytes, !sawLower)
    }

    /// The UUID text of 16 bytes.
    static func uuidText(_ bytes: some Collection<UInt8>, upper: Bool) -> String {
        let digits = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Seconds since 2020-01-01T00:00:00Z of a `YYYY-MM-DDTHH:MM:SSZ` time, when it prints back identically.
    static func seconds(ofTimestamp text: String) -> Int64? {
        // Timestamp reads the time, refusing dates that do not exist; printing it back refuses every other shape
        // (a fraction, an offset, lower case, a leap second), so the compact form stays lossless.
        guard text.utf8.count == 20, let milliseconds = Timestamp.milliseconds(parsing: text) else { return nil }
        let seconds = CivilCalendar.floorDivide(milliseconds, 1_000) - epochDays * 86_400
        return timestamp(ofSeconds: seconds) == text ? seconds : nil
    }

    /// The `YYYY-MM-DDTHH:MM:SSZ` text of seconds since 2020-01-01T00:00:00Z, nil outside years 0…9999.
    static func timestamp(ofSeconds seconds: Int64) -> String? {
        // Years 0…9999 lie within ±2.1e11 s of 2020; anything else is not a value the encoder writes.
        guard seconds > -70_000_000_000, seconds < 260_000_000_000 else { return nil }
        let days = CivilCalendar.floorDivide(seconds, 86_400)
        let rest = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.date(fromDays: days + epochDays)
        guard (0...9999).contains(year) else { return nil }
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: 4 - String(year).count) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(rest / 3_600)):\(two(rest % 3_600 / 60)):\(two(rest % 60))Z"
    }

    private static let epochDays = CivilCalendar.days(year: 2020, month: 1, day: 1)

    // MARK: Format version 2

    /// Seconds from 2020-01-01T00:00:00Z to 2024-01-01T00:00:00Z, the epoch of version 2's session start.
    static let epoch2024 = Int64(CivilCalendar.days(year: 2024, month: 1, day: 1) - epochDays) * 86_400

    /// How version 2 writes the session start (docs/ENCODING.md, "Body").
    enum StartedForm: UInt8 {
        /// A string.
        case text = 0
        /// `YYYY-MM-DDTHH:MM:SSZ` at or after 2024: a varint of seconds since 2024-01-01T00:00:00Z.
        case seconds = 1
        /// `YYYY-MM-DDTHH:MM:SS.fffZ` at or after 2024: a varint of milliseconds since 2024-01-01T00:00:00Z.
        case milliseconds = 2
    }

    /// The compact form and value of a session start, nil when only the string prints it back exactly.
    static func started(_ text: String) -> (form: StartedForm, value: UInt64)? {
        let utf8 = Array(text.utf8)
        if utf8.count == 24, utf8[19] == UInt8(ascii: "."), utf8[23] == UInt8(ascii: "Z") {
            var milliseconds: Int64 = 0
            for character in utf8[20..<23] {
                guard character >= UInt8(ascii: "0"), character <= UInt8(ascii: "9") else { return nil }
                milliseconds = milliseconds * 10 + Int64(character - UInt8(ascii: "0"))
            }
            guard let seconds = seconds(ofTimestamp: String(decoding: utf8[0..<19] + [UInt8(ascii: "Z")], as: UTF8.self)),
                seconds >= epoch2024
            else { return nil }
            return (.milliseconds, UInt64((seconds - epoch2024) * 1_000 + milliseconds))
        }
        guard let seconds = seconds(ofTimestamp: text), seconds >= epoch2024 else { return nil }
        return (.seconds, UInt64(seconds - epoch2024))
    }

    /// The text of a compact session start, nil when the value is past year 9999.
    static func startedText(_ form: StartedForm, value: UInt64) -> String? {
        switch form {
        case .text: return nil
        case .seconds:
            guard value < 1 << 40 else { return nil }
            return timestamp(ofSeconds: Int64(value) + epoch2024)
        case .milliseconds:
            guard value < 1 << 50, let text = timestamp(ofSeconds: Int64(value / 1_000) + epoch2024) else { return nil }
            let milliseconds = String(value % 1_000)
            return text.dropLast() + "." + String(repeating: "0", count: 3 - milliseconds.count) + milliseconds + "Z"
        }
    }

    /// The most numbers a dotted version or build may have in its compact form.
    static let maximumDottedNumbers = 7

    /// The numbers of a version or build such as `3.1.1` or `400`: one to seven decimal numbers joined by dots,
    /// each without leading zeros and below 10^19; nil for anything else, which stays a string.
    static func dottedNumbers(_ text: String) -> [UInt64]? {
        var numbers: [UInt64] = []
        var current: UInt64 = 0
        var digits = 0
        var leadingZero = false
        for character in text.utf8 {
            if character == UInt8(ascii: ".") {
                guard digits > 0, numbers.count < maximumDottedNumbers - 1 else { return nil }
                numbers.append(current)
                (current, digits, leadingZero) = (0, 0, false)
                continue
            }
            guard character >= UInt8(ascii: "0"), character <= UInt8(ascii: "9"), !leadingZero, digits < 19 else { return nil }
            if digits == 0, character == UInt8(ascii: "0") { leadingZero = true }
            current = current * 10 + UInt64(character - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits > 0 else { return nil }
        numbers.append(current)
        return numbers
    }

    /// The text of dotted numbers.
    static func dottedText(_ numbers: [UInt64]) -> String {
        numbers.map(String.init).joined(separator: ".")
    }
}
