public import CrashtrailCore

/// A trail's screen path (SPEC section 13): the destination name on top of the screen after each replayed step,
/// starting with the top of `base` (or of the launch state), with consecutive repeats collapsed.
public enum ScreenPath {
    /// The screen path of `trail`, replayed with `manifest`'s rules.
    public static func names(of trail: Trail, manifest: Manifest) -> [String] {
        var engine = NavigationEngine(manifest: manifest, state: trail.base)
        var names: [String] = []
        func visit(_ state: NavigationState) {
            guard let top = state.topDestination?.name, top != names.last else { return }
            names.append(top)
        }
        visit(engine.state)
        for step in trail.steps {
            engine.apply(step)
            visit(engine.state)
        }
        return names
    }

    /// The last `count` screens of a path, ending with the screen at the crash.
    public static func lastScreens(_ names: [String], count: Int) -> [String] {
        Array(names.suffix(max(0, count)))
    }
}
