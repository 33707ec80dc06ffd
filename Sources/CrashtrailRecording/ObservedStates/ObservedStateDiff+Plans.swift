import CrashtrailCore

/// The candidate plans of a change (SPEC section 11): edited in place, through a gate, or through the request of a
/// destination that waits for a flow. Each is checked by ``ObservedStateDiff/steps(to:at:after:)``, which keeps the
/// shortest that reaches the observed state.
extension ObservedStateDiff {
    /// Every plan from the last observed state to `target` worth trying.
    func candidatePlans(to target: NavigationState) -> [[Step.Operation]] {
        guard let pending = target.pending else { return structuralPlans(from: engine, to: target) }
        // The same destination still waiting: its flow's modal is edited in place; else it is requested anew.
        let inPlace = engine.state.pending == pending ? structuralPlans(from: engine, to: target) : []
        return inPlace + pendingPlans(to: target, pending: pending)
    }

    /// Plans to a state with no pending destination: the state edited in place (keeping its modals, or dismissing
    /// from its lowest flow modal so that a pending destination goes), and the same after the push of each gate or
    /// tab root whose request gives the target's tab bar and roots.
    func structuralPlans(from start: NavigationEngine, to target: NavigationState) -> [[Step.Operation]] {
        let from = start.state
        var plans: [[Step.Operation]] = []
        let sameShape = (from.tab == nil) == (target.tab == nil) && from.stacks.map(\.first) == target.stacks.map(\.first)
        if sameShape {
            plans += self.plans(from: from, to: target)
            if target.pending == nil, from.pending != nil, let flow = from.modals.firstIndex(where: isFlowModal) {
                plans += self.plans(from: from, to: target, keeping: flow)
            }
        }
        // A gate (or a tab root) discards the modals and the pending destination and resets the roots.
        let satisfied = target.conditions.subtracting(from.conditions).sorted(by: CanonicalJSON.codePointPrecedes)
        for gate in gateCandidates(for: target, from: from) {
            let prefix = satisfied.map { Step.Operation.satisfy($0) } + [.push(Destination(gate))]
            let trial = simulated(prefix, from: start)
            guard (trial.state.tab == nil) == (target.tab == nil), trial.state.stacks.map(\.first) == target.stacks.map(\.first) else {
                continue
            }
            plans += self.plans(from: trial.state, to: target).map { prefix + $0 }
        }
        return plans
    }

    /// The destinations whose push may give `target`'s tab bar and roots: its root when it is a gate, else each tab
    /// root (a gate, one that acts as one with no tab bar showing, or one that resets its own stack), the selected
    /// tab's first.
    private func gateCandidates(for target: NavigationState, from: NavigationState) -> [String] {
        guard target.tab != nil, let selected = target.tab else {
            guard let root = target.stacks.first?.first?.name, manifest.spec(named: root)?.gate == true else { return [] }
            return [root]
        }
        let tabs = manifest.tabs
        return ([selected] + tabs.indices.filter { $0 != selected }).filter { $0 < tabs.count }.map { tabs[$0] }
    }

    /// Plans to a state whose flow waits with a pending destination: the state below the flow's modal reached as
    /// above, the destination requested (with its mode) while the flow's condition is missing, then the flow's
    /// modal and those above it edited in place.
    private func pendingPlans(to target: NavigationState, pending: PendingDestination) -> [[Step.Operation]] {
        guard let spec = manifest.spec(named: pending.destination.name) else { return [] }
        var plans: [[Step.Operation]] = []
        for (index, requirement) in spec.requires.enumerated() {
            guard let flow = manifest.condition(named: requirement)?.flow else { continue }
            for k in target.modals.indices where target.modals[k].first?.name == flow {
                // When it is requested, the requirements before this one hold and this one does not.
                var before = target
                before.pending = nil
                before.modals = Array(target.modals[..<k])
                before.conditions = target.conditions.union(spec.requires[..<index]).subtracting([requirement])
                let request: Step.Operation =
                    switch pending.mode {
                    case .push: .push(pending.destination)
                    case .present: .present(pending.destination)
                    case .open: .open(.destination(pending.destination))
                    }
                for first in structuralPlans(from: engine, to: before) {
                    let trial = simulated(first + [request], from: engine)
                    guard trial.state.pending == pending else { continue }
                    plans += self.plans(from: trial.state, to: target).map { first + [request] + $0 }
                }
            }
        }
        return plans
    }

    /// `start` after `ops`, spaced so that no modal transition collides: what the plan's steps reach when timed.
    private func simulated(_ ops: [Step.Operation], from start: NavigationEngine) -> NavigationEngine {
        var trial = start
        let spacing = manifest.modalTransition + 1
        var time = (start.transition?.start ?? 0) + spacing
        for op in ops {
            trial.apply(Step(t: time, op))
            time += spacing
        }
        return trial
    }

    /// Whether a modal's root is some condition's flow.
    private func isFlowModal(_ modal: [Destination]) -> Bool {
        guard let root = modal.first?.name else { return false }
        return manifest.conditions.contains { $0.flow == root }
    }

    /// Why no plan reaches `target`, in words.
    func unreachableReason(to target: NavigationState) -> String {
        let from = engine.state
        if let pending = target.pending {
            return
                "the pending destination \(pending.destination.name) cannot be reached: it must wait for a condition whose flow is a modal of the observed state, requested by \(pending.mode.rawValue) while that condition is missing"
        }
        if (from.tab == nil) != (target.tab == nil) || from.stacks.map(\.first) != target.stacks.map(\.first) {
            let root = target.stacks.first?.first?.name ?? "none"
            return target.tab == nil
                ? "the root \(root) is not a gate, so no step makes it the only stack's root"
                : "the tab stacks' roots are not the manifest's tab roots, which only a gate resets"
        }
        return "the state cannot be reached from the one before with push, pop, popToRoot, select, present, dismiss, satisfy and revoke"
    }

    /// The ops that edit `from` into `to` in place (same tab bar and roots), in order.
    /// - Parameters:
    ///   - from: the state before.
    ///   - to: the state to reach.
    ///   - keptLimit: the most leading modals that may stay (fewer when a flow modal must go to let its pending
    ///     destination go).
    ///   - viaTabRoots: whether a tab stack that goes back to its root is reached by the push of its tab root, which
    ///     also selects the tab and dismisses the modals (SPEC 4 rule 3), instead of a select and pops.
    /// - Returns: the ops.
    func plan(
        from: NavigationState, to: NavigationState, keeping keptLimit: Int = .max, viaTabRoots: Bool = false
    ) -> [Step.Operation] {
        var ops: [Step.Operation] = []
        // Conditions that came: first, so that a push does not bring up a flow.
        ops += to.conditions.subtracting(from.conditions).sorted(by: CanonicalJSON.codePointPrecedes).map { Step.Operation.satisfy($0) }
        let satisfied = from.conditions.union(to.conditions)
        let stacksChange = from.stacks != to.stacks
        // Modals: the leading ones that are the same stay; the first that differs only above its root is edited in
        // place; the rest are dismissed. Base stacks can be edited only with no modal over them.
        var kept = min(keptLimit, zip(from.modals, to.modals).prefix { $0 == $1 }.count)
        var editInPlace =
            kept < keptLimit && kept < from.modals.count && kept < to.modals.count && from.modals[kept].first == to.modals[kept].first
        if stacksChange {
            kept = 0
            editInPlace = false
        }
        let dismissals = from.modals.count - kept - (editInPlace ? 1 : 0)
        var tab = from.tab
        var stackOps: [Step.Operation] = []
        if stacksChange {
            for index in from.stacks.indices where from.stacks[index] != to.stacks[index] {
                let common = zip(from.stacks[index], to.stacks[index]).prefix { $0 == $1 }.count
                if viaTabRoots, tab != nil, common == 1, let root = to.stacks[index].first, isPlainTabRoot(root, satisfied: satisfied) {
                    stackOps.append(.push(root))
                    tab = index
                    stackOps += to.stacks[index].dropFirst().map { Step.Operation.push($0) }
                    continue
                }
                if tab != nil, tab != index {
                    stackOps.append(.select(tab: Int64(index)))
                    tab = index
                }
                stackOps += edit(from.stacks[index], to: to.stacks[index])
            }
        }
        // A tab root's push dismisses every modal itself.
        let rootFirst =
            stackOps.first.map { if case .push(let root) = $0 { to.stacks.contains { $0.first == root } } else { false } } ?? false
        if !(viaTabRoots && rootFirst) { ops += Array(repeating: .dismiss, count: max(0, dismissals)) }
        ops += stackOps
        if let wanted = to.tab, tab != wanted { ops.append(.select(tab: Int64(wanted))) }
        if editInPlace { ops += edit(from.modals[kept], to: to.modals[kept]) }
        for modal in to.modals.dropFirst(kept + (editInPlace ? 1 : 0)) {
            guard let root = modal.first else { continue }
            ops.append(.present(root))
            ops += modal.dropFirst().map { Step.Operation.push($0) }
        }
        // Conditions that went: last.
        ops += from.conditions.subtracting(to.conditions).sorted(by: CanonicalJSON.codePointPrecedes).map { Step.Operation.revoke($0) }
        return ops
    }

    /// Whether `destination` is a tab root whose push selects its tab (rule 3): no gate, every requirement held.
    private func isPlainTabRoot(_ destination: Destination, satisfied: Set<String>) -> Bool {
        guard manifest.tabIndex(of: destination.name) != nil, let spec = manifest.spec(named: destination.name) else { return false }
        return !spec.gate && spec.requires.allSatisfy(satisfied.contains)
    }

    /// Both ways of editing `from` into `to` in place (``plan(from:to:keeping:viaTabRoots:)``).
    func plans(from: NavigationState, to: NavigationState, keeping keptLimit: Int = .max) -> [[Step.Operation]] {
        let plain = plan(from: from, to: to, keeping: keptLimit)
        let viaRoots = plan(from: from, to: to, keeping: keptLimit, viaTabRoots: true)
        return plain == viaRoots ? [plain] : [plain, viaRoots]
    }

    /// The fewest ops that turn the top stack `from` into `to` (same root): pop to the longest common prefix
    /// (`popToRoot` when that is the root alone and more than one pop is needed), then push the rest.
    func edit(_ from: [Destination], to: [Destination]) -> [Step.Operation] {
        let common = zip(from, to).prefix { $0 == $1 }.count
        let pops = from.count - common
        var ops: [Step.Operation] = common == 1 && pops > 1 ? [.popToRoot] : Array(repeating: .pop, count: pops)
        ops += to.dropFirst(common).map { Step.Operation.push($0) }
        return ops
    }
}
