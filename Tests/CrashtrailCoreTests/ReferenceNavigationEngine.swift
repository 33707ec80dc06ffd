@testable import CrashtrailCore

/// The engine as it was before the replay entry that records no anomalies, reserved stack capacity and the
/// cheaper rule lookup.
///
/// Test-only: the reference the differential tests compare ``NavigationEngine`` with.
struct ReferenceNavigationEngine: Sendable {
    let manifest: Manifest
    /// The current state.
    private(set) var state: NavigationState
    /// How many steps have been applied; the next step's index.
    private(set) var stepCount: Int = 0
    /// The last modal transition started, if any: when it started and which step started it.
    ///
    /// It runs for
    /// `manifest.modalTransition` milliseconds.
    private(set) var transition: (start: Int64, step: Int)?

    /// An engine at `state`, or at the manifest's launch state.
    ///
    /// No transition runs at the start.
    init(manifest: Manifest, state: NavigationState? = nil) {
        self.manifest = manifest
        self.state = state ?? manifest.launchState
    }

    /// Whether a modal transition is still running at time `t`.
    func isTransitionRunning(at t: Int64) -> Bool {
        guard let transition else { return false }
        // Compare the elapsed time rather than an end time, which could overflow near Int64.max.
        let (elapsed, overflow) = t.subtractingReportingOverflow(transition.start)
        return !overflow && elapsed < manifest.modalTransition
    }

    /// Applies one step and returns its anomalies, in SPEC order.
    @discardableResult
    mutating func apply(_ step: Step) -> [NavigationAnomaly] {
        var anomalies: [NavigationAnomaly] = []
        apply(step, into: &anomalies)
        return anomalies
    }

    /// Applies every step in order and returns all anomalies.
    @discardableResult
    mutating func apply(_ steps: some Sequence<Step>) -> [NavigationAnomaly] {
        var anomalies: [NavigationAnomaly] = []
        // An array's steps are read in place rather than copied out one at a time.
        let appliedInPlace: Void? = steps.withContiguousStorageIfAvailable { buffer in
            for index in buffer.indices { apply(buffer[index], into: &anomalies) }
        }
        if appliedInPlace == nil {
            for step in steps { apply(step, into: &anomalies) }
        }
        return anomalies
    }

    /// Applies one step and appends its anomalies, in SPEC order, to `anomalies`.
    mutating func apply(_ step: Step, into anomalies: inout [NavigationAnomaly]) {
        let index = stepCount
        stepCount += 1
        var context = StepContext(index: index)
        swap(&context.anomalies, &anomalies)
        defer { swap(&context.anomalies, &anomalies) }
        // Only a step that can add or remove a modal can collide with a transition or start one, and none can when
        // transitions take no time; the others skip the bookkeeping below (pop, popToRoot and select change a stack
        // but never a modal's root).
        let canCollide: Bool
        switch step.op {
        case .push, .present, .open, .dismiss, .complete: canCollide = manifest.modalTransition > 0
        case .pop, .popToRoot, .select, .satisfy, .revoke: canCollide = false
        }
        guard canCollide else {
            perform(step.op, context: &context)
            return
        }
        let running = isTransitionRunning(at: step.t) ? transition : nil
        let snapshot = running == nil ? nil : state
        // Steps only append or remove the topmost modal, or remove them all, so the list of modal roots changed
        // exactly when the count or the topmost root changed. Keeping only these avoids copying the modals.
        let modalCountBefore = state.modals.count
        let topRootBefore = state.modals.last?.first
        perform(step.op, context: &context)
        let rootsChanged = state.modals.count != modalCountBefore || state.modals.last?.first != topRootBefore
        guard !context.exempt, rootsChanged else { return }
        if let running, let snapshot {
            // UIKit drops a presentation requested during another: the whole step changes nothing.
            state = snapshot
            context.anomalies.append(
                NavigationAnomaly(
                    step: index, kind: .transitionCollision,
                    detail:
                        "step \(index) (\(step.op.name)) came \(step.t - running.start) ms after step \(running.step) started a modal transition of \(manifest.modalTransition) ms, so it was dropped",
                    after: running.step))
        } else {
            transition = (step.t, index)
        }
    }

    private struct StepContext {
        let index: Int
        /// The anomalies so far: the step's are appended.
        var anomalies: [NavigationAnomaly] = []
        /// The step resolved as a gate, which neither collides nor starts a transition.
        var exempt = false

        mutating func report(_ kind: NavigationAnomaly.Kind, _ detail: String) {
            anomalies.append(NavigationAnomaly(step: index, kind: kind, detail: detail))
        }
    }

    private mutating func perform(_ op: Step.Operation, context: inout StepContext) {
        switch op {
        case .push(let destination):
            request(destination, mode: .push, context: &context)
        case .present(let destination):
            request(destination, mode: .present, context: &context)
        case .open(.destination(let destination)):
            request(destination, mode: .open, context: &context)
        case .open(.url(let url)):
            guard let destination = manifest.destination(forURL: url) else {
                context.report(.unknownURL, "the link \(url) matches no destination of the manifest, so nothing changed")
                return
            }
            request(destination, mode: .open, context: &context)
        case .pop:
            pop(context: &context)
        case .popToRoot:
            mutateTopStack { stack in
                if stack.count > 1 { stack.removeSubrange(1...) }
            }
        case .dismiss:
            guard let removed = state.modals.popLast() else {
                context.report(.dismissWithoutModal, "dismiss with no modal presented, so nothing changed")
                return
            }
            if isFlowModal(removed) { state.pending = nil }
        case .select(let tab):
            guard state.tab != nil, tab >= 0, tab < state.stacks.count else {
                let why = state.tab == nil ? "no tab bar is showing" : "the tab bar has \(state.stacks.count) tabs"
                context.report(.invalidTab, "select tab \(tab), but \(why), so nothing changed")
                return
            }
            state.tab = Int(tab)
        case .complete(let success):
            complete(success: success, context: &context)
        case .satisfy(let condition):
            state.conditions.insert(condition)
        case .revoke(let condition):
            state.conditions.remove(condition)
        }
    }

    private mutating func pop(context: inout StepContext) {
        var atRoot = false
        mutateTopStack { stack in
            if stack.count > 1 { stack.removeLast() } else { atRoot = true }
        }
        if atRoot {
            let root = state.topDestination.map { $0.name } ?? "?"
            context.report(.popAtRoot, "pop at the root \(root) of the top stack, so nothing changed")
        }
    }

    private mutating func complete(success: Bool, context: inout StepContext) {
        guard let top = state.modals.last, isFlowModal(top), let root = top.first else {
            context.report(.completeWithoutFlow, "complete with no flow modal on top, so nothing changed")
            return
        }
        state.modals.removeLast()
        guard success else {
            state.pending = nil
            return
        }
        for condition in manifest.conditions where condition.flow == root.name {
            state.conditions.insert(condition.name)
        }
        if let pending = state.pending {
            state.pending = nil
            request(pending.destination, mode: pending.mode, context: &context)
        }
    }

    /// A navigation request for `destination` (SPEC section 4, rules 1 to 5).
    private mutating func request(_ destination: Destination, mode: RequestMode, context: inout StepContext) {
        guard let rule = manifest.rules.rule(named: destination.name) else {
            context.report(
                .unknownDestination, "\(destination.name) is not a destination of the manifest; it was applied by its op anyway")
            if mode == .present { state.modals.append([destination]) } else { appendToTopStack(destination) }
            return
        }
        // 1. A missing condition presents its flow and keeps the destination pending.
        for index in rule.requirements where !state.conditions.contains(manifest.rules.requirements[index].condition) {
            state.pending = PendingDestination(destination, mode: mode)
            state.modals.append([manifest.rules.requirements[index].flow])
            return
        }
        // 2. A gate discards everything.
        if rule.gate {
            resolveAsGate(destination, tabIndex: rule.tabIndex)
            context.exempt = true
            return
        }
        // 3. A tab root selects its tab, or acts as a gate when no tab bar shows.
        if let tabIndex = rule.tabIndex {
            if state.tab != nil, tabIndex < state.stacks.count {
                state.modals.removeAll()
                state.pending = nil
                state.tab = tabIndex
                if state.stacks[tabIndex].count > 1 { state.stacks[tabIndex].removeSubrange(1...) }
            } else {
                resolveAsGate(destination, tabIndex: tabIndex)
                context.exempt = true
            }
            return
        }
        // 4–5. Push or present.
        let effective: RequestMode = mode == .open ? (rule.modal ? .present : .push) : mode
        if effective == .present { state.modals.append([destination]) } else { appendToTopStack(destination) }
    }

    /// Resolves `destination`, whose tab index is `tabIndex`, as a gate: it discards everything.
    private mutating func resolveAsGate(_ destination: Destination, tabIndex: Int?) {
        state.modals.removeAll()
        state.pending = nil
        if let tabIndex {
            state.tab = tabIndex
            state.stacks = manifest.tabStacks
        } else {
            state.tab = nil
            state.stacks = [[destination]]
        }
    }

    private func isFlowModal(_ modal: [Destination]) -> Bool {
        guard let root = modal.first else { return false }
        // Every flow is a destination of the manifest (the manifest is refused otherwise), so its rule says.
        return manifest.rules.rule(named: root.name)?.isFlow ?? false
    }

    private mutating func appendToTopStack(_ destination: Destination) {
        mutateTopStack { $0.append(destination) }
    }

    private mutating func mutateTopStack(_ body: (inout [Destination]) -> Void) {
        if !state.modals.isEmpty {
            body(&state.modals[state.modals.count - 1])
        } else {
            let index = state.tab ?? 0
            if index < state.stacks.count { body(&state.stacks[index]) }
        }
    }
}
