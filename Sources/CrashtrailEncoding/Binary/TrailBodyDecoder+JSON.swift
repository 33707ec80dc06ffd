import CrashtrailCore

extension TrailBodyDecoder {
    /// The canonical JSON of `trail`, the trail this decoder read, byte for byte `trail.canonicalJSON`
    /// (DecodedJSONTests compares them): `TrailCanonicalWriter` writes the header fields, and the steps are
    /// written from their codes and the table slots' JSON, written once per slot, rather than from the `Step` values.
    /// - Parameters:
    ///   - trail: the decoded trail, for its header fields and states.
    ///   - codes: its steps' codes, in order.
    ///   - times: its steps' times, in order.
    /// - Returns: the canonical JSON bytes.
    mutating func canonicalJSON(of trail: Trail, codes: [StepCode], times: [Int64]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + codes.count * 48)
        // The header fields and their order are the canonical writer's; only the steps are written here.
        TrailCanonicalWriter.write(trail, into: &out) { out in
            for index in codes.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeStep(codes[index], t: times[index], into: &out)
            }
        }
        return out
    }

    /// One step: keys in code point order among condition, op, success, t, tab, to, url.
    private mutating func writeStep(_ code: StepCode, t: Int64, into out: inout [UInt8]) {
        let op = code.op
        let argument = Int(truncatingIfNeeded: code.argument)
        if op < 0x80 {
            switch BodyCode.DestinationKind(rawValue: op >> 5) {
            case .push: Self.append(#"{"op":"push","t":"#, t, #","to":"#, to: &out)
            case .present: Self.append(#"{"op":"present","t":"#, t, #","to":"#, to: &out)
            case .openDestination: Self.append(#"{"op":"open","t":"#, t, #","to":"#, to: &out)
            case .openPrintedURL, .none:
                Self.append(#"{"op":"open","t":"#, t, #","url":"#, to: &out)
                CanonicalJSON.writeString(printedURLs[argument] ?? "", into: &out)
                out.append(UInt8(ascii: "}"))
                return
            }
            destinationJSON.append(slot: argument, { destinations[argument] }, to: &out)
            out.append(UInt8(ascii: "}"))
            return
        }
        switch op {
        case BodyCode.pop: Self.append(#"{"op":"pop","t":"#, t, "}", to: &out)
        case BodyCode.popToRoot: Self.append(#"{"op":"popToRoot","t":"#, t, "}", to: &out)
        case BodyCode.dismiss: Self.append(#"{"op":"dismiss","t":"#, t, "}", to: &out)
        case BodyCode.completeFailure: Self.append(#"{"op":"complete","success":false,"t":"#, t, "}", to: &out)
        case BodyCode.completeSuccess: Self.append(#"{"op":"complete","success":true,"t":"#, t, "}", to: &out)
        case BodyCode.openURL:
            Self.append(#"{"op":"open","t":"#, t, #","url":"#, to: &out)
            CanonicalJSON.writeString(urls[argument], into: &out)
            out.append(UInt8(ascii: "}"))
        default:
            switch op & 0xF0 {
            case BodyCode.select:
                Self.append(#"{"op":"select","t":"#, t, #","tab":"#, to: &out)
                CanonicalJSON.writeInt(code.argument, into: &out)
                out.append(UInt8(ascii: "}"))
            default:
                Self.append(#"{"condition":"#, to: &out)
                CanonicalJSON.writeString(conditions[argument], into: &out)
                Self.append(op & 0xF0 == BodyCode.satisfy ? #","op":"satisfy","t":"# : #","op":"revoke","t":"#, t, "}", to: &out)
            }
        }
    }

    /// Appends a literal's UTF-8 bytes with one copy: appending a `String`'s `utf8` view goes through the generic
    /// sequence path, several times slower for the few bytes of a step's keys.
    @inline(__always)
    static func append(_ literal: StaticString, to out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Appends `prefix`, the step time `t` in decimal (as `CanonicalJSON.writeInt` writes it) and `suffix`, all
    /// put together on the stack and appended with one copy: every step writes one such run, and each append to
    /// an array costs far more than the few bytes it copies.
    /// - Precondition: `prefix` and `suffix` together hold at most 64 bytes (the longest step prefix holds 38).
    static func append(_ prefix: StaticString, _ t: Int64, _ suffix: StaticString, to out: inout [UInt8]) {
        guard t >= 0, prefix.utf8CodeUnitCount + suffix.utf8CodeUnitCount <= 64 else {
            append(prefix, to: &out)
            CanonicalJSON.writeInt(t, into: &out)
            append(suffix, to: &out)
            return
        }
        // 96 bytes: 64 of literals and up to 19 digits. Raw copies: the typed buffer calls copy byte by byte.
        var scratch: (SIMD32<UInt8>, SIMD32<UInt8>, SIMD32<UInt8>) = (.zero, .zero, .zero)
        withUnsafeMutableBytes(of: &scratch) { raw in
            guard let base = raw.baseAddress else { return }
            var end = prefix.withUTF8Buffer { literal in
                if let start = literal.baseAddress { base.copyMemory(from: start, byteCount: literal.count) }
                return literal.count
            }
            var magnitude = UInt64(t)
            var digits = 1
            var power: UInt64 = 10
            while digits < 19, magnitude >= power {
                digits += 1
                power &*= 10
            }
            end += digits
            var index = end
            repeat {
                index -= 1
                base.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10), toByteOffset: index, as: UInt8.self)
                magnitude /= 10
            } while magnitude > 0
            end += suffix.withUTF8Buffer { literal in
                if let start = literal.baseAddress { (base + end).copyMemory(from: start, byteCount: literal.count) }
                return literal.count
            }
            out.append(contentsOf: UnsafeRawBufferPointer(start: base, count: end))
        }
    }
}
