import CrashtrailCore

extension TrailBodyDecoder {
    /// Reads the step count, then each step's op byte and arguments, in order; the steps are built once their times
    /// are known.
    mutating func readStepCodes() throws(ReadError) -> [StepCode] {
        let count = try reader.count("the step count", atMost: reader.remaining)
        guard count <= maximumSteps else { throw .tooManySteps(count, limit: maximumSteps) }
        let ops = Array(try reader.bytes(count, "the op bytes"))
        var codes: [StepCode] = []
        codes.reserveCapacity(count)
        for (index, op) in ops.enumerated() {
            codes.append(try readOperation(op, step: index))
        }
        return codes
    }

    /// Reads the high parts of `count` step time deltas (the low bytes are in the raw column).
    mutating func readTimeHighParts(count: Int) throws(ReadError) -> [Int64] {
        var times: [Int64] = []
        times.reserveCapacity(count)
        for index in 0..<count {
            let high = try reader.varint("the time of step \(index)")
            guard high <= UInt64(Int64.max) >> 8 else { throw .invalid("the time of step \(index) overflows") }
            // The low bytes are read after every high part, so the sum is checked once they are known.
            times.append(Int64(high << 8))
        }
        return times
    }

    /// The steps of `codes`, each timed by adding its delta to the last step's time.
    ///
    /// A delta is its high part in `times` and its byte of `lows`; `times` then holds each step's time. Each step is
    /// applied to `replay` before it moves into the array.
    mutating func buildSteps(
        _ codes: [StepCode], times: inout [Int64], lows: ArraySlice<UInt8>, replay: inout FinalReplay?
    ) throws(ReadError) -> [Step] {
        var steps: [Step] = []
        steps.reserveCapacity(codes.count)
        var t: Int64 = 0
        for (index, low) in zip(codes.indices, lows) {
            let (sum, overflow) = t.addingReportingOverflow(times[index] | Int64(low))
            guard !overflow else { throw .invalid("the time of step \(index) overflows") }
            t = sum
            times[index] = t
            let step = Step(t: t, operation(of: codes[index]))
            replay?.apply(step, code: codes[index], destinations: destinations)
            steps.append(step)
        }
        return steps
    }

    /// Reads the arguments of the step with op byte `op`, returning its code; the step is built once its time is
    /// known.
    private mutating func readOperation(_ op: UInt8, step: Int) throws(ReadError) -> StepCode {
        if op < 0x80 {
            let slot = op & 0x1F
            let tableIndex = try readDestinationSlot(slot, step: step)
            if BodyCode.DestinationKind(rawValue: op >> 5) == .openPrintedURL {
                if tableIndex >= printedURLs.count {
                    printedURLs.append(contentsOf: repeatElement(nil, count: tableIndex + 1 - printedURLs.count))
                }
                if printedURLs[tableIndex] == nil {
                    let destination = destinations[tableIndex]
                    guard let printed = dictionary?.manifest.url(for: destination) else {
                        throw .invalid("step \(step) opens the printed URL of \(destination.name), which has none")
                    }
                    printedURLs[tableIndex] = printed
                }
            }
            return StepCode(op: op, argument: Int64(tableIndex))
        }
        switch op {
        case BodyCode.pop, BodyCode.popToRoot, BodyCode.dismiss, BodyCode.completeFailure, BodyCode.completeSuccess:
            return StepCode(op: op, argument: 0)
        case BodyCode.openURL:
            return StepCode(op: op, argument: Int64(try Self.readInternedIndex(&urls, &reader, "the URL of step \(step)")))
        default: break
        }
        let nibble = op & 0x0F
        switch op & 0xF0 {
        case BodyCode.select:
            return StepCode(
                op: op, argument: nibble == BodyCode.nibbleEscape ? try reader.signed("the tab of step \(step)") : Int64(nibble))
        case BodyCode.satisfy, BodyCode.revoke: return StepCode(op: op, argument: Int64(try readConditionIndex(nibble, step: step)))
        default: throw .invalid("step \(step) has op byte 0x\(String(op, radix: 16)), which no encoder writes")
        }
    }

    /// The operation of a step read as `code`, naming the tables' values.
    private func operation(of code: StepCode) -> Step.Operation {
        let op = code.op
        let argument = Int(truncatingIfNeeded: code.argument)
        if op < 0x80 {
            switch BodyCode.DestinationKind(rawValue: op >> 5) {
            case .push: return .push(destinations[argument])
            case .present: return .present(destinations[argument])
            case .openDestination: return .open(.destination(destinations[argument]))
            case .openPrintedURL, .none: return .open(.url(printedURLs[argument] ?? ""))
            }
        }
        switch op {
        case BodyCode.pop: return .pop
        case BodyCode.popToRoot: return .popToRoot
        case BodyCode.dismiss: return .dismiss
        case BodyCode.completeFailure: return .complete(success: false)
        case BodyCode.completeSuccess: return .complete(success: true)
        case BodyCode.openURL: return .open(.url(urls[argument]))
        default: break
        }
        switch op & 0xF0 {
        case BodyCode.select: return .select(tab: code.argument)
        case BodyCode.satisfy: return .satisfy(conditions[argument])
        default: return .revoke(conditions[argument])
        }
    }

    /// The destination table index a step names, reading a new destination into the table.
    private mutating func readDestinationSlot(_ slot: UInt8, step: Int) throws(ReadError) -> Int {
        switch slot {
        case BodyCode.newSlot:
            _ = try readNewDestination(depth: 0)
            return destinations.count - 1
        case BodyCode.escapeSlot:
            let rest = try reader.index(
                "the destination of step \(step)", below: max(0, destinations.count - Int(BodyCode.foldedSlots)))
            return rest + Int(BodyCode.foldedSlots)
        default:
            let index = Int(slot) - 1
            guard index < destinations.count else {
                throw .invalid("step \(step) names destination \(index) but only \(destinations.count) are known")
            }
            return index
        }
    }

    /// The condition table index a satisfy or revoke names, reading a new condition into the table.
    private mutating func readConditionIndex(_ nibble: UInt8, step: Int) throws(ReadError) -> Int {
        switch nibble {
        case 0:
            let condition = try reader.string("the condition of step \(step)")
            conditions.append(condition)
            return conditions.count - 1
        case BodyCode.nibbleEscape:
            let rest = try reader.index(
                "the condition of step \(step)", below: max(0, conditions.count - Int(BodyCode.nibbleEscape) + 1))
            return rest + Int(BodyCode.nibbleEscape) - 1
        default:
            let index = Int(nibble) - 1
            guard index < conditions.count else {
                throw .invalid("step \(step) names condition \(index) but only \(conditions.count) are known")
            }
            return index
        }
    }
}
