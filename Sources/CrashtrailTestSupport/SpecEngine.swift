public import CrashtrailCore

/// The navigation rules of SPEC section 4, written from the SPEC alone, the straightforward way, as an oracle for the
/// production ``NavigationEngine``: state as plain values, a fresh copy per step, no caches, no shared code with the
/// engine.
///
/// It reads the manifest's data (tabs, root, conditions, each destination's presentation, requirements and gate)
/// and, for an `open` by URL, the manifest's URL parser (which the URL conformance cases check on their own).
public struct SpecEngine {
    /// An anomaly as SPEC section 4 names it: the step, the kind and, for a collision, the earlier step.
    public struct Anomaly: Hashable, Sendable, CustomStringConvertible {
        public var step: Int
        public var kind: String
        public var after: Int?

        public init(step: Int, kind: String, after: Int? = nil) {
            self.step = step
            self.kind = kind
            self.after = after
        }

        public var description: String { "step \(step) \(kind)" + (after.map { " after \($0)" } ?? "") }
    }

    public let manifest: Manifest
    public private(set) var state: NavigationState
    /// The running modal transition: its start time and the step that started it.
    public private(set) var transitionStart: Int64?
    public private(set) var transitionStep: Int?
    /// The index the next step gets.
    public private(set) var index = 0

    public init(manifest: Manifest, state: NavigationState? = nil) {
        self.manifest = manifest
        if let state {
            self.state = state
        } else if manifest.tabs.isEmpty {
            self.state = NavigationState(tab: nil, stacks: [[Destination(manifest.root ?? "")]])
        } else {
            self.state = NavigationState(tab: 0, stacks: manifest.tabs.map { [Destination($0)] })
        }
    }

    /// Applies one step and returns its anomalies, in SPEC order.
    @discardableResult
    public mutating func apply(_ step: Step) -> [Anomaly] {
        let before = state
        var next = state
        var anomalies: [String] = []
        var exempt = false

        switch step.op {
        case .push(let destination):
            exempt = request(destination, mode: .push, in: &next, anomalies: &anomalies)
        case .present(let destination):
            exempt = request(destination, mode: .present, in: &next, anomalies: &anomalies)
        case .open(.destination(let destination)):
            exempt = request(destination, mode: .open, in: &next, anomalies: &anomalies)
        case .open(.url(let url)):
            if let destination = manifest.destination(forURL: url) {
                exempt = request(destination, mode: .open, in: &next, anomalies: &anomalies)
            } else {
                anomalies.append("unknown-url")
            }
        case .pop:
            let top = topStack(of: next)
            if top.count > 1 {
                setTopStack(Array(top.dropLast()), in: &next)
            } else {
                anomalies.append("pop-at-root")
            }
        case .popToRoot:
            let top = topStack(of: next)
            if let root = top.first { setTopStack([root], in: &next) }
        case .dismiss:
            if let removed = next.modals.popLast() {
                if let root = removed.first, isFlow(root) { next.pending = nil }
            } else {
                anomalies.append("dismiss-without-modal")
            }
        case .select(let tab):
            if next.tab != nil, tab >= 0, tab < Int64(next.stacks.count) {
                next.tab = Int(tab)
            } else {
                anomalies.append("invalid-tab")
            }
        case .complete(let success):
            if let top = next.modals.last, let root = top.first, isFlow(root) {
                next.modals.removeLast()
                if success {
                    for condition in manifest.conditions where condition.flow == root.name {
                        next.conditions.insert(condition.name)
                    }
                    if let pending = next.pending {
                        next.pending = nil
                        exempt = request(pending.destination, mode: pending.mode, in: &next, anomalies: &anomalies)
                    }
                } else {
                    next.pending = nil
                }
            } else {
                anomalies.append("complete-without-flow")
            }
        case .satisfy(let condition):
            next.conditions.insert(condition)
        case .revoke(let condition):
            next.conditions.remove(condition)
        }

        var result = anomalies.map { Anomaly(step: index, kind: $0) }
        let changesModalRoots = next.modals.map(\.first) != before.modals.map(\.first)
        if changesModalRoots, !exempt {
            if let start = transitionStart, let startedBy = transitionStep, isRunning(from: start, at: step.t) {
                // Dropped: the whole step changes nothing and starts no transition.
                next = before
                result.append(Anomaly(step: index, kind: "transition-collision", after: startedBy))
            } else {
                transitionStart = step.t
                transitionStep = index
            }
        }
        state = next
        index += 1
        return result
    }

    /// Applies every step in order and returns all anomalies.
    @discardableResult
    public mutating func apply(_ steps: [Step]) -> [Anomaly] {
        steps.flatMap { apply($0) }
    }

    /// Rules 1 to 5 for a request of `destination`; returns whether it resolved as a gate (exempt from collisions).
    private func request(_ destination: Destination, mode: RequestMode, in state: inout NavigationState, anomalies: inout [String]) -> Bool
    {
        let spec = manifest.destinations.first { $0.name == destination.name }
        if spec == nil { anomalies.append("unknown-destination") }
        // 1. A required condition that is missing: wait for it behind its flow.
        for condition in spec?.requires ?? [] where !state.conditions.contains(condition) {
            state.pending = PendingDestination(destination, mode: mode)
            let flow = manifest.conditions.first { $0.name == condition }?.flow ?? ""
            state.modals.append([Destination(flow)])
            return false
        }
        let tabIndex = manifest.tabs.firstIndex(of: destination.name)
        // 2. A gate, and 3. a tab root with no tab bar showing: everything is discarded.
        if spec?.gate == true || (tabIndex != nil && state.tab == nil) {
            state.modals = []
            state.pending = nil
            if let tabIndex {
                state.tab = tabIndex
                state.stacks = manifest.tabs.map { [Destination($0)] }
            } else {
                state.tab = nil
                state.stacks = [[destination]]
            }
            return true
        }
        // 3. A tab root with the tab bar showing.
        if let tabIndex {
            state.modals = []
            state.pending = nil
            state.tab = tabIndex
            state.stacks[tabIndex] = Array(state.stacks[tabIndex].prefix(1))
            return false
        }
        // 4. and 5.
        let presents = mode == .present || (mode == .open && spec?.presentation == .modal)
        if presents {
            state.modals.append([destination])
        } else {
            var top = topStack(of: state)
            top.append(destination)
            setTopStack(top, in: &state)
        }
        return false
    }

    private func isFlow(_ destination: Destination) -> Bool {
        manifest.conditions.contains { $0.flow == destination.name }
    }

    private func isRunning(from start: Int64, at t: Int64) -> Bool {
        let (elapsed, overflow) = t.subtractingReportingOverflow(start)
        return !overflow && elapsed < manifest.modalTransition
    }

    private func topStack(of state: NavigationState) -> [Destination] {
        if let modal = state.modals.last { return modal }
        return state.stacks[state.tab ?? 0]
    }

    private func setTopStack(_ stack: [Destination], in state: inout NavigationState) {
        if state.modals.isEmpty {
            state.stacks[state.tab ?? 0] = stack
        } else {
            state.modals[state.modals.count - 1] = stack
        }
    }
}
