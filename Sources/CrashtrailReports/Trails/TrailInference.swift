import CrashtrailCore

/// A trail inferred from the screens a crash reporter's breadcrumbs saw (SPEC section 15), for crashes that carry no
/// recorded trail.
///
/// Each sighting of a screen the manifest names (`screen:` / `screens:`) is an observation of what is on top, and
/// becomes the steps SPEC section 11's rules give, applied to a headless Navigator as they are chosen:
/// - the screen already on top: no step (a reporter writes a screen again when it reappears);
/// - a flow modal on top whose condition the screen needs: `complete` (the user finished the flow);
/// - a screen in the top stack: popped back to (`popToRoot` for its root); in a stack under modals: `dismiss` down
///   to it, then popped back to;
/// - a tab root: `select` when only the tab changes, else its `push` (which closes modals and pops its stack);
/// - a gate: its `push`;
/// - a modal destination, or one the reporter says was presented: `present`;
/// - anything else: `push`.
///
/// Conditions a screen requires and the state lacks are `satisfy` steps before it: the user saw the screen, so they
/// held. Values a breadcrumb does not carry (an item's ID) are unknown: each placeholder of the destination's URL
/// template is `null` in its payload. Step times are the breadcrumbs' times since the first one; a step that would
/// collide with a running modal transition is moved to the transition's end, so replay reaches every screen.
package enum TrailInference {
    /// The trail `sightings` give with `manifest`, or nil when none names a screen of the manifest.
    /// - Parameters:
    ///   - sightings: the reporter's screen breadcrumbs, oldest first.
    ///   - manifest: the app's manifest, naming the screens.
    ///   - app: the trail's app.
    ///   - sessionID: the trail's session ID (the report's ID).
    ///   - pid: the crashed process's ID, 0 when unknown.
    ///   - fallbackStart: the session start, in milliseconds since 1970, when no sighting has a time.
    /// - Returns: the inferred trail (no `base`, no `final`), or nil.
    package static func trail(
        from sightings: [ScreenSighting], manifest: Manifest, app: Trail.AppInfo, sessionID: String, pid: Int64, fallbackStart: Int64?
    ) -> Trail? {
        let known = sightings.compactMap { sighting in
            (manifest.destination(forScreen: sighting.screen) ?? sighting.alternative.flatMap(manifest.destination(forScreen:)))
                .map { (sighting, $0) }
        }
        guard !known.isEmpty else { return nil }
        let start = known.lazy.compactMap(\.0.time).first ?? fallbackStart ?? 0
        var builder = Builder(manifest: manifest)
        var t: Int64 = 0
        for (sighting, spec) in known {
            if let time = sighting.time { t = max(t, time &- start) }
            builder.reach(spec, presented: sighting.presented, at: t)
        }
        return Trail(
            app: app, session: Trail.Session(id: sessionID, started: Timestamp.rfc3339(milliseconds: start), pid: pid),
            steps: builder.steps)
    }

    /// The destination a sighting of `spec` stands for: every placeholder of its URL template unknown (`null`).
    package static func destination(for spec: Manifest.DestinationSpec) -> Destination {
        var destination = Destination(spec.name)
        for placeholder in spec.route?.placeholders ?? [] { destination.setValue(.null, atPath: placeholder.path) }
        return destination
    }

    /// Chooses the steps for each sighting and applies them as it goes.
    private struct Builder {
        let manifest: Manifest
        var engine: NavigationEngine
        var steps: [Step] = []
        var lastT: Int64 = 0

        init(manifest: Manifest) {
            self.manifest = manifest
            engine = NavigationEngine(manifest: manifest)
        }

        var state: NavigationState { engine.state }

        mutating func reach(_ spec: Manifest.DestinationSpec, presented: Bool, at t: Int64) {
            if state.topDestination?.name == spec.name { return }
            if let flow = state.modals.last?.first, manifest.isFlow(flow.name),
                spec.requires.contains(where: { !state.conditions.contains($0) && manifest.condition(named: $0)?.flow == flow.name })
            {
                emit(.complete(success: true), at: t)
                if state.topDestination?.name == spec.name { return }
            }
            if popBack(to: spec.name, at: t) { return }
            for condition in spec.requires where !state.conditions.contains(condition) { emit(.satisfy(condition), at: t) }
            let destination = TrailInference.destination(for: spec)
            if let tab = manifest.tabIndex(of: spec.name) {
                if state.tab != nil, state.modals.isEmpty, tab < state.stacks.count, state.stacks[tab].count == 1 {
                    emit(.select(tab: Int64(tab)), at: t)
                } else {
                    emit(.push(destination), at: t)
                }
            } else if spec.gate {
                emit(.push(destination), at: t)
            } else if spec.presentation == .modal || presented {
                emit(.present(destination), at: t)
            } else {
                emit(.push(destination), at: t)
            }
        }

        /// Dismisses and pops back to the topmost `name` shown in the top stack or a stack under it; false when none.
        private mutating func popBack(to name: String, at t: Int64) -> Bool {
            let layers = state.modals.count
            for layer in stride(from: layers, through: 0, by: -1) {
                let stack = layer == 0 ? state.stacks[min(state.tab ?? 0, state.stacks.count - 1)] : state.modals[layer - 1]
                guard let index = stack.lastIndex(where: { $0.name == name }) else { continue }
                for _ in layer..<layers { emit(.dismiss, at: t) }
                if index == 0, stack.count > 1 {
                    emit(.popToRoot, at: t)
                } else {
                    for _ in (index + 1)..<max(index + 1, stack.count) { emit(.pop, at: t) }
                }
                return true
            }
            return false
        }

        private mutating func emit(_ op: Step.Operation, at t: Int64) {
            var stepT = max(t, lastT)
            switch op {
            case .push, .present, .open, .dismiss, .complete:
                if let transition = engine.transition, engine.isTransitionRunning(at: stepT) {
                    stepT = transition.start &+ manifest.modalTransition
                }
            case .pop, .popToRoot, .select, .satisfy, .revoke:
                break
            }
            let step = Step(t: stepT, op)
            engine.apply(step)
            steps.append(step)
            lastT = stepT
        }
    }
}

extension Trail {
    /// The name of the screen on top at the crash: the top of the recorded `final` state when the trail has one, else
    /// of the state replaying it with `manifest` gives; nil without either.
    package func crashScreen(manifest: Manifest?) -> String? {
        if let final { return final.topDestination?.name }
        guard let manifest else { return nil }
        var engine = NavigationEngine(manifest: manifest, state: base)
        for step in steps { engine.applyDiscardingAnomalies(step) }
        return engine.state.topDestination?.name
    }
}
