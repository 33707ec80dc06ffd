import CrashtrailCore

extension TrailBodyDecoder {
    /// The canonical JSON of `trail`, the trail this decoder read, byte for byte `trail.canonicalJSON`
    /// (TrailBodyDecoderJSONTests compares them): the steps are written from their codes and the table slots'
    /// JSON, written once per slot, rather than from the `Step` values.
    /// - Parameters:
    ///   - trail: the decoded trail, for its header fields and states.
    ///   - codes: its steps' codes, in order.
    ///   - times: its steps' times, in order.
    /// - Returns: the canonical JSON bytes.
    mutating func canonicalJSON(of trail: Trail, codes: [StepCode], times: [Int64]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + codes.count * 48)
        // Keys in code point order: app, base, dropped, final, session, steps, version.
        out.append(contentsOf: #"{"app":{"build":"#.utf8)
        CanonicalJSON.writeString(trail.app.build, into: &out)
        out.append(contentsOf: #","bundleID":"#.utf8)
        CanonicalJSON.writeString(trail.app.bundleID, into: &out)
        out.append(contentsOf: #","version":"#.utf8)
        CanonicalJSON.writeString(trail.app.version, into: &out)
        out.append(UInt8(ascii: "}"))
        if let base = trail.base {
            out.append(contentsOf: #","base":"#.utf8)
            CanonicalJSON.write(base.jsonValue, into: &out)
        }
        out.append(contentsOf: #","dropped":"#.utf8)
        CanonicalJSON.writeInt(trail.dropped, into: &out)
        if let final = trail.final {
            out.append(contentsOf: #","final":"#.utf8)
            CanonicalJSON.write(final.jsonValue, into: &out)
        }
        out.append(contentsOf: #","session":{"id":"#.utf8)
        CanonicalJSON.writeString(trail.session.id, into: &out)
        out.append(contentsOf: #","pid":"#.utf8)
        CanonicalJSON.writeInt(trail.session.pid, into: &out)
        out.append(contentsOf: #","started":"#.utf8)
        CanonicalJSON.writeString(trail.session.started, into: &out)
        out.append(contentsOf: #"},"steps":["#.utf8)
        for index in codes.indices {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            writeStep(codes[index], t: times[index], into: &out)
        }
        out.append(contentsOf: #"],"version":"#.utf8)
        CanonicalJSON.writeInt(trail.version, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// One step: keys in code point order among condition, op, success, t, tab, to, url.
    private mutating func writeStep(_ code: StepCode, t: Int64, into out: inout [UInt8]) {
        let op = code.op
        let argument = Int(truncatingIfNeeded: code.argument)
        if op < 0x80 {
            switch BodyCode.DestinationKind(rawValue: op >> 5) {
            case .push: out.append(contentsOf: #"{"op":"push","t":"#.utf8)
            case .present: out.append(contentsOf: #"{"op":"present","t":"#.utf8)
            case .openDestination: out.append(contentsOf: #"{"op":"open","t":"#.utf8)
            case .openPrintedURL, .none:
                out.append(contentsOf: #"{"op":"open","t":"#.utf8)
                Self.writeTime(t, into: &out)
                out.append(contentsOf: #","url":"#.utf8)
                CanonicalJSON.writeString(printedURLs[argument] ?? "", into: &out)
                out.append(UInt8(ascii: "}"))
                return
            }
            Self.writeTime(t, into: &out)
            out.append(contentsOf: #","to":"#.utf8)
            destinationJSON.append(slot: argument, { destinations[argument] }, to: &out)
            out.append(UInt8(ascii: "}"))
            return
        }
        switch op {
        case BodyCode.pop: out.append(contentsOf: #"{"op":"pop","t":"#.utf8)
        case BodyCode.popToRoot: out.append(contentsOf: #"{"op":"popToRoot","t":"#.utf8)
        case BodyCode.dismiss: out.append(contentsOf: #"{"op":"dismiss","t":"#.utf8)
        case BodyCode.completeFailure: out.append(contentsOf: #"{"op":"complete","success":false,"t":"#.utf8)
        case BodyCode.completeSuccess: out.append(contentsOf: #"{"op":"complete","success":true,"t":"#.utf8)
        case BodyCode.openURL:
            out.append(contentsOf: #"{"op":"open","t":"#.utf8)
            Self.writeTime(t, into: &out)
            out.append(contentsOf: #","url":"#.utf8)
            CanonicalJSON.writeString(urls[argument], into: &out)
            out.append(UInt8(ascii: "}"))
            return
        default:
            switch op & 0xF0 {
            case BodyCode.select:
                out.append(contentsOf: #"{"op":"select","t":"#.utf8)
                Self.writeTime(t, into: &out)
                out.append(contentsOf: #","tab":"#.utf8)
                CanonicalJSON.writeInt(code.argument, into: &out)
                out.append(UInt8(ascii: "}"))
                return
            default:
                out.append(contentsOf: #"{"condition":"#.utf8)
                CanonicalJSON.writeString(conditions[argument], into: &out)
                out.append(contentsOf: (op & 0xF0 == BodyCode.satisfy ? #","op":"satisfy","t":"# : #","op":"revoke","t":"#).utf8)
            }
        }
        Self.writeTime(t, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Appends a step time in decimal, as `CanonicalJSON.writeInt` does, without its copy through a temporary
    /// buffer: times are the one number every step has.
    static func writeTime(_ value: Int64, into out: inout [UInt8]) {
        guard value >= 0 else {
            CanonicalJSON.writeInt(value, into: &out)
            return
        }
        var magnitude = UInt64(value)
        var count = 1
        var power: UInt64 = 10
        while count < 19, magnitude >= power {
            count += 1
            power &*= 10
        }
        let end = out.count + count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        out.withUnsafeMutableBufferPointer { buffer in
            var index = end
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
        }
    }
}
