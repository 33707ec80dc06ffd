import CrashtrailCore

/// The final state of a body that flags it as replayed, rebuilt while the decoder builds the steps.
///
/// Each step is applied before it moves into the steps array, so the engine reads it in place (applied from the
/// array, every step would be copied out and destroyed). Only the final state and the screen path are kept, so the
/// replay builds no anomalies. An invalid base is noted rather than thrown, so that the decoder's errors keep their
/// order.
struct FinalReplay {
    private let manifest: Manifest
    /// Nil when the base is invalid: the engine assumes a valid state.
    private var engine: NavigationEngine?
    private var baseError: String?
    /// The destination names on top after each step, consecutive repeats collapsed, as `ScreenPath.names` gives them:
    /// ingest stores them instead of replaying the trail a second time.
    private(set) var screenNames: [String] = []

    /// A replay from `base`, or from the manifest's launch state.
    init(manifest: Manifest, base: NavigationState?) {
        self.manifest = manifest
        if let base {
            do {
                _ = try NavigationState(jsonValue: base.jsonValue, path: "base")
            } catch {
                baseError = error.description
            }
        }
        if baseError == nil {
            let engine = NavigationEngine(manifest: manifest, state: base ?? manifest.launchState)
            self.engine = engine
            noteTop(of: engine.state)
        }
    }

    /// Applies `step`, read as `code` with the decoder's `destinations` table.
    mutating func apply(_ step: Step, code: StepCode, destinations: [Destination]) {
        if code.op < 0x80, code.op >> 5 == BodyCode.DestinationKind.openPrintedURL.rawValue {
            // A printed link opens the destination it was printed from; apply that directly rather than parse the
            // URL back (the encoder writes this form only when the link resolves back to that destination, so it is
            // the same request and leads to the same state).
            engine?.applyDiscardingAnomalies(Step(t: step.t, .open(.destination(destinations[Int(code.argument)]))))
        } else {
            engine?.applyDiscardingAnomalies(step)
        }
        if let state = engine?.state { noteTop(of: state) }
    }

    private mutating func noteTop(of state: NavigationState) {
        guard let top = state.topDestination?.name, top != screenNames.last else { return }
        screenNames.append(top)
    }

    /// The screen path the replay saw, with the fingerprint of its manifest; nil when the base is invalid.
    var replayedScreens: ReplayedScreens? {
        engine == nil ? nil : ReplayedScreens(names: screenNames, manifest: manifest.fingerprint)
    }

    /// The replayed final state of `steps`, the steps applied.
    /// - Throws: `ByteReader.ReadError` when the step times are outside the replayable range or the base is invalid.
    func final(of steps: [Step]) throws(ByteReader.ReadError) -> NavigationState? {
        guard TrailBodyEncoder.canReplay(steps, manifest: manifest) else {
            throw .invalid("the final state is flagged as replayed but the step times are out of the replayable range")
        }
        if let baseError { throw .invalid("the base state is invalid: \(baseError)") }
        return engine?.state
    }
}
