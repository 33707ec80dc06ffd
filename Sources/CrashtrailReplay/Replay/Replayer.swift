public import CrashtrailCore

/// Replays a trail on the headless Navigator: every kept step applied from the trail's `base` (or launch),
/// then the final state compared with the recorded one and the shortest links computed and verified.
///
/// ```swift
/// let replay = Replayer(manifest: manifest).replay(trail, report: "crash.json")
/// print(ReplayRenderer.render(replay, as: .text))
/// ```
public struct Replayer: Sendable {
    /// The manifest the trail's app was built with.
    public let manifest: Manifest

    /// A replayer for one app's manifest.
    /// - Parameter manifest: the app's route table.
    public init(manifest: Manifest) {
        self.manifest = manifest
    }

    /// Replays `trail`.
    /// - Parameters:
    ///   - trail: the trail to replay.
    ///   - report: the stored report ID or the file the trail came from, as the output names it.
    /// - Returns: the replay: steps, final state, verification, links and anomalies.
    public func replay(_ trail: Trail, report: String) -> Replay {
        var engine = NavigationEngine(manifest: manifest, state: trail.base)
        var steps: [ReplayedStep] = []
        steps.reserveCapacity(trail.steps.count)
        var anomalies: [NavigationAnomaly] = []
        for step in trail.steps {
            let index = engine.stepCount
            let (to, url) = target(of: step.op)
            // An open by URL is the request for the destination its URL names (SPEC section 4), so a URL that
            // parsed is applied as that destination: the link is parsed once, not twice.
            var applied = step
            if case .open(.url) = step.op, let to { applied.op = .open(.destination(to)) }
            let stepAnomalies = engine.apply(applied)
            anomalies.append(contentsOf: stepAnomalies)
            let top = engine.state.topStack
            steps.append(
                ReplayedStep(
                    index: index, t: step.t, op: step.op.name, to: to, url: url, top: top.last, depth: top.count,
                    modals: engine.state.modals.count, anomalies: stepAnomalies.map(\.kind),
                    argument: Self.argument(of: step.op), redacted: to.map(manifest.holdsStandIn) ?? false))
        }
        let final = engine.state
        let difference = trail.final.flatMap { StateDifference.first(replayed: final, recorded: $0) }
        return Replay(
            report: report, app: trail.app, session: trail.session, dropped: trail.dropped, manifestSource: manifest.source,
            steps: steps, final: final, recordedFinal: trail.final, difference: difference,
            links: ShortestLinks(manifest: manifest, final: final), anomalies: anomalies)
    }

    /// The argument of an op without a destination, for people.
    private static func argument(of op: Step.Operation) -> String? {
        switch op {
        case .select(let tab): "tab \(tab)"
        case .complete(let success): success ? "success" : "failure"
        case .satisfy(let condition), .revoke(let condition): condition
        case .push, .present, .open, .pop, .popToRoot, .dismiss: nil
        }
    }

    /// The destination a step asked for and its URL (SPEC section 9, `to` and `url`).
    private func target(of op: Step.Operation) -> (Destination?, String?) {
        switch op {
        case .push(let destination), .present(let destination), .open(.destination(let destination)):
            return (destination, manifest.url(for: destination))
        case .open(.url(let url)):
            return (manifest.destination(forURL: url), url)
        case .pop, .popToRoot, .dismiss, .select, .complete, .satisfy, .revoke:
            return (nil, nil)
        }
    }
}
