import CrashtrailCore

extension TrailBodyDecoder {
    /// A navigation state written in full (a base or final state), its destinations and conditions by reference.
    mutating func readState(_ what: String) throws(ReadError) -> NavigationState {
        let tabReference = try reader.varint("the tab of \(what)")
        var lists: [[[Destination]]] = []
        for part in ["stacks", "modals"] {
            let count = try reader.count("the \(part) count of \(what)", atMost: reader.remaining)
            var stacks: [[Destination]] = []
            for _ in 0..<count {
                let depth = try reader.count("a stack depth of \(what)", atMost: reader.remaining)
                var stack: [Destination] = []
                for _ in 0..<depth { stack.append(try readDestinationReference("a destination of \(what)")) }
                stacks.append(stack)
            }
            lists.append(stacks)
        }
        let satisfied = try readSatisfiedConditions(what)
        let pending = try readPending(what)
        guard tabReference <= UInt64(lists[0].count) else { throw .invalid("the tab of \(what) is out of range") }
        return NavigationState(
            tab: tabReference == 0 ? nil : Int(tabReference - 1), stacks: lists[0], modals: lists[1],
            conditions: satisfied, pending: pending)
    }

    /// The satisfied conditions of a state, by reference or spelled out (joining the condition table).
    private mutating func readSatisfiedConditions(_ what: String) throws(ReadError) -> Set<String> {
        let conditionCount = try reader.count("the condition count of \(what)", atMost: reader.remaining)
        var satisfied: Set<String> = []
        for _ in 0..<conditionCount {
            let reference = try reader.index("a condition of \(what)", below: conditions.count + 1)
            if reference > 0 {
                satisfied.insert(conditions[reference - 1])
            } else {
                let condition = try reader.string("a condition of \(what)")
                conditions.append(condition)
                satisfied.insert(condition)
            }
        }
        return satisfied
    }

    /// The pending destination of a state and how it was requested, or nil.
    private mutating func readPending(_ what: String) throws(ReadError) -> PendingDestination? {
        let mode = try reader.byte("the pending mode of \(what)")
        switch mode {
        case BodyCode.noPending: return nil
        case 1...3:
            let modes: [RequestMode] = [.push, .present, .open]
            return PendingDestination(try readDestinationReference("the pending destination of \(what)"), mode: modes[Int(mode) - 1])
        default: throw .invalid("the pending mode of \(what) is \(mode)")
        }
    }
}
