/// The headless Navigator: the navigation rules of SPEC section 4 applied to a ``NavigationState``, with no UI.
///
/// A value type, so a replay can be copied and resumed. The app-facing ``Navigator`` and the replayer both
/// drive one of these, so recording and replay follow exactly the same rules.
package struct NavigationEngine: Sendable {
    package let manifest: Manifest
    /// The current state.
    package private(set) var state: NavigationState
    /// How many steps have been applied; the next step's index.
    package private(set) var stepCount: Int = 0
    /// The last modal transition started, if any: when it started and which step started it.
    ///
    /// It runs for `manifest.modalTransition` milliseconds.
    package private(set) var transition: (start: Int64, step: Int)?

    /// An engine at `state`, or at the manifest's launch state.
    ///
    /// No transition runs at the start.
    package init(manifest: Manifest, state: NavigationState? = nil) {
        self.manifest = manifest
        self.state = state ?? manifest.launchState
    }

    /// Whether a modal transition is still running at time `t`.
    package func isTransitionRunning(at t: Int64) -> Bool {
        guard let transition else { return false }
        // Compare the elapsed time rather than an end time, which could overflow near Int64.max.
        let (elapsed, overflow) = t.subtractingReportingOverflow(transition.start)
        return !overflow && elapsed < manifest.modalTransition
    }

    /// Applies one step and returns its anomalies, in SPEC order.
    @discardableResult
    package mutating func apply(_ step: Step) -> [NavigationAnomaly] {
        var anomalies: [NavigationAnomaly] = []
        apply(step, into: &anomalies)
        return anomalies
    }

    /// Applies every step in order and returns all anomalies.
    @inlinable
    @discardableResult
    package mutating func apply(_ steps: some Sequence<Step>) -> [NavigationAnomaly] {
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
    @usableFromInline
    mutating func apply(_ step: Step, into anomalies: inout [NavigationAnomaly]) {
        var context = StepContext(index: stepCount, recordsAnomalies: true)
        swap(&context.anomalies, &anomalies)
        defer { swap(&context.anomalies, &anomalies) }
        apply(step, context: &context)
    }

    /// Applies one step as ``apply(_:)`` does, but builds no anomalies: for a replay that keeps only the state.
    ///
    /// The state, step count and transition end exactly as ``apply(_:)`` leaves them, since no rule reads the
    /// anomalies. The step is read in place, not copied.
    package mutating func applyDiscardingAnomalies(_ step: Step) {
        var context = StepContext(index: stepCount, recordsAnomalies: false)
        apply(step, context: &context)
    }

    private mutating func apply(_ step: Step, context: inout StepContext) {
        let index = stepCount
        stepCount += 1
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
        // Steps only append or remove the topmost modal, or remove them all, so the list of modal roots changed
        // exactly when the count or the topmost root changed. Keeping only these avoids copying the modals.
        let modalCountBefore = state.modals.count
        let topRootBefore = state.modals.last?.first
        guard let running = isTransitionRunning(at: step.t) ? transition : nil else {
            // No transition runs, so nothing can be dropped and no snapshot is needed.
            perform(step.op, context: &context)
            if !context.exempt, state.modals.count != modalCountBefore || state.modals.last?.first != topRootBefore {
                transition = (step.t, index)
            }
            return
        }
        let snapshot = state
        perform(step.op, context: &context)
        let rootsChanged = state.modals.count != modalCountBefore || state.modals.last?.first != topRootBefore
        guard !context.exempt, rootsChanged else { return }
        // UIKit drops a presentation requested during another: the whole step changes nothing.
        state = snapshot
        context.report(.transitionCollision, after: running.step) {
            "step \(index) (\(step.op.name)) came \(step.t - running.start) ms after step \(running.step) started a modal transition of \(manifest.modalTransition) ms, so it was dropped"
        }
    }

    private struct StepContext {
        let index: Int
        /// Whether anomalies are built at all; when not, their detail sentences are never written either.
        let recordsAnomalies: Bool
        /// The anomalies so far: the step's are appended.
        var anomalies: [NavigationAnomaly] = []
        /// The step resolved as a gate, which neither collides nor starts a transition.
        var exempt = false

        init(index: Int, recordsAnomalies: Bool) {
            self.index = index
            self.recordsAnomalies = recordsAnomalies
        }

        /// Appends an anomaly of `kind`, writing its detail only when anomalies are recorded.
        mutating func report(_ kind: NavigationAnomaly.Kind, after: Int? = nil, _ detail: () -> String) {
            guard recordsAnomalies else { return }
            anomalies.append(NavigationAnomaly(step: index, kind: kind, detail: detail(), after: after))
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
                context.report(.unknownURL) { "the link \(url) matches no destination of the manifest, so nothing changed" }
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
                context.report(.dismissWithoutModal) { "dismiss with no modal presented, so nothing changed" }
                return
            }
            if isFlowModal(removed) { state.pending = nil }
        case .select(let tab):
            guard state.tab != nil, tab >= 0, tab < state.stacks.count else {
                context.report(.invalidTab) {
                    let why =
                        state.tab == nil
                        ? "no tab bar is showing"
                        : state.stacks.count == 1 ? "the tab bar has 1 tab" : "the tab bar has \(state.stacks.count) tabs"
                    return "select tab \(tab), but \(why), so nothing changed"
                }
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
            context.report(.popAtRoot) {
                "pop at the root \(state.topDestination.map { $0.name } ?? "?") of the top stack, so nothing changed"
            }
        }
    }

    private mutating func complete(success: Bool, context: inout StepContext) {
        guard let top = state.modals.last, isFlowModal(top), let root = top.first else {
            context.report(.completeWithoutFlow) { "complete with no flow modal on top, so nothing changed" }
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
            context.report(.unknownDestination) {
                "\(destination.name) is not a destination of the manifest; it was applied by its op anyway"
            }
            if mode == .present { state.modals.append(Self.stack(startingWith: destination)) } else { appendToTopStack(destination) }
            return
        }
        // 1. A missing condition presents its flow and keeps the destination pending.
        for index in rule.requirements where !state.conditions.contains(manifest.rules.requirements[index].condition) {
            state.pending = PendingDestination(destination, mode: mode)
            state.modals.append(Self.stack(startingWith: manifest.rules.requirements[index].flow))
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
                // Keeping the room saves reallocating the list on the next present.
                state.modals.removeAll(keepingCapacity: true)
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
        if effective == .present { state.modals.append(Self.stack(startingWith: destination)) } else { appendToTopStack(destination) }
    }

    /// Resolves `destination`, whose tab index is `tabIndex`, as a gate: it discards everything.
    private mutating func resolveAsGate(_ destination: Destination, tabIndex: Int?) {
        state.modals.removeAll(keepingCapacity: true)
        state.pending = nil
        if let tabIndex {
            state.tab = tabIndex
            state.stacks = manifest.tabStacks
        } else {
            state.tab = nil
            state.stacks = [Self.stack(startingWith: destination)]
        }
    }

    private func isFlowModal(_ modal: [Destination]) -> Bool {
        guard let root = modal.first else { return false }
        // Every flow is a destination of the manifest (the manifest is refused otherwise), so its rule says.
        return manifest.rules.rule(named: root.name)?.isFlow ?? false
    }

    /// A new stack holding `root`, with room for pushes: a literal `[root]` has room for one and reallocates on
    /// the first push.
    private static func stack(startingWith root: Destination) -> [Destination] {
        var stack: [Destination] = []
        stack.reserveCapacity(initialStackCapacity)
        stack.append(root)
        return stack
    }

    /// The room a new stack starts with, and the least a full or shared one is given on a push.
    private static var initialStackCapacity: Int { 8 }

    private mutating func appendToTopStack(_ destination: Destination) {
        mutateTopStack { stack in
            // A stack still shared with the manifest's tab stacks (room for one) is copied on its first push, and a
            // base's stacks have no spare room: reserving then saves the reallocations of doubling from one.
            if stack.count == stack.capacity { stack.reserveCapacity(Swift.max(Self.initialStackCapacity, stack.count * 2)) }
            stack.append(destination)
        }
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

extension Trail {
    /// The state the trail's steps reach from its base, replayed on the headless engine: how the journal fuzzer checks a
    /// recovered trail against its final state (`Tools/Fuzz`, another package).
    @_spi(Fuzzing) public func replayedState(with manifest: Manifest) -> NavigationState {
        var engine = NavigationEngine(manifest: manifest, state: base)
        engine.apply(steps)
        return engine.state
    }
}
