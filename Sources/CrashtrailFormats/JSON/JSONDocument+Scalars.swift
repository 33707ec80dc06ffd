import CrashtrailCore

/// Reading strings, numbers and booleans with Foundation's `JSONDecoder` rules; a failure says why without a
/// path, and the decoder adds it (`SkimmingDecoderImpl.decodingError`).
extension JSONDocument {
    // MARK: - Booleans

    func bool(at position: JSONPosition) throws(ScalarReadError) -> Bool {
        guard position.offset >= 0 else { throw .kind(.null) }
        switch base[position.offset] {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: throw .kind(kind(of: position))
        }
    }

    // MARK: - Strings

    func string(at position: JSONPosition) throws(ScalarReadError) -> String {
        guard position.offset >= 0, base[position.offset] == .quote else { throw .kind(kind(of: position)) }
        let start = position.offset + 1
        let (end, escaped, ascii) = JSONBytes.scanString(base, from: start, count: count)
        if !escaped, ascii {
            return String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
        }
        return try text(between: start, and: end, escaped: escaped)
    }

    /// The text of the string whose content (between the quotes) is `start..<end`.
    /// - Throws: `ScalarReadError` for invalid UTF-8 or a lone surrogate escape.
    func text(between start: Int, and end: Int, escaped: Bool) throws(ScalarReadError) -> String {
        guard escaped else {
            guard let text = String(validating: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self) else {
                throw .invalidUTF8(offset: start - 1)
            }
            return text
        }
        do {
            // The document is valid, so the string is whole and its escapes complete.
            return try JSONString.read(UnsafeBufferPointer(start: base, count: count), from: start).text
        } catch {
            if case .loneSurrogate(_, let codeUnit) = error { throw .loneSurrogate(offset: start - 1, codeUnit: codeUnit) }
            throw .invalidUTF8(offset: start - 1)
        }
    }

    // MARK: - Numbers

    /// An integer, as Foundation reads one: digits that fit directly; otherwise (a fraction, an exponent, or too
    /// many digits) through `Double`, accepted when the `Double` is a whole number `T` holds, and re-read exactly
    /// from the digits at 2^53 and beyond, where a `Double` no longer tells integers apart.
    func integer<T: FixedWidthInteger>(_ type: T.Type, at position: JSONPosition) throws(ScalarReadError) -> T {
        guard position.offset >= 0, case .number = kind(of: position) else { throw .kind(kind(of: position)) }
        let start = position.offset
        let end = numberEnd(from: start)
        var index = start
        let negative = base[index] == .minus
        if negative { index += 1 }
        var value: T = 0
        while index < end {
            let byte = base[index]
            guard JSONBytes.isDigit(byte) else { break }
            let digit = T(truncatingIfNeeded: byte &- .zero)
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            guard !overflow, !overflow2 else { break }
            value = next
            index += 1
        }
        if index == end { return value }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
        if let double = Double(text), let whole = T(exactly: double) {
            if double.magnitude < 0x1p53 { return whole }
            if let exact = exactInteger(T.self, from: start, to: end) { return exact }
        }
        throw .unrepresentable(offset: start, end: end)
    }

    /// The whole part of a decimal number, exactly, when `T` holds it (fraction digits are dropped, as
    /// Foundation's `Decimal` conversion drops them).
    private func exactInteger<T: FixedWidthInteger>(_ type: T.Type, from start: Int, to end: Int) -> T? {
        var index = start
        let negative = base[index] == .minus
        if negative { index += 1 }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var inFraction = false
        while index < end, base[index] != UInt8(ascii: "e"), base[index] != UInt8(ascii: "E") {
            if base[index] == .period {
                inFraction = true
            } else {
                digits.append(base[index] - .zero)
                if inFraction { fractionDigits += 1 }
            }
            index += 1
        }
        var exponent = 0
        if index < end {
            index += 1
            let negativeExponent = base[index] == .minus
            if base[index] == .minus || base[index] == .plus { index += 1 }
            while index < end {
                exponent = min(exponent * 10 + Int(base[index] - .zero), 1_000_000)
                index += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        let scale = exponent - fractionDigits
        let kept = scale >= 0 ? digits.count : max(0, digits.count + scale)
        var magnitude: UInt64 = 0
        for digit in digits.prefix(kept) {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow, !overflow2 else { return nil }
            magnitude = next
        }
        if scale > 0, magnitude != 0 {
            for _ in 0..<scale {
                let (next, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                magnitude = next
            }
        }
        if negative {
            guard T.isSigned, let value = T(exactly: magnitude) else { return nil }
            return 0 - value
        }
        return T(exactly: magnitude)
    }

    /// A `Double` or `Float`, correctly rounded; refused when it overflows to infinity or a non-zero number rounds
    /// to zero, as Foundation refuses them.
    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type, at position: JSONPosition)
        throws(ScalarReadError) -> T
    {
        guard position.offset >= 0, case .number = kind(of: position) else { throw .kind(kind(of: position)) }
        let start = position.offset
        let end = numberEnd(from: start)
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
        if let value = T(text), value.isFinite, value != 0 || isZero(from: start, to: end) { return value }
        throw .unrepresentable(offset: start, end: end)
    }

    /// Whether the number's digits before any exponent are all zeros.
    private func isZero(from start: Int, to end: Int) -> Bool {
        for offset in start..<end {
            let byte = base[offset]
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return true }
            if byte > .zero, byte <= .nine { return false }
        }
        return true
    }
}
