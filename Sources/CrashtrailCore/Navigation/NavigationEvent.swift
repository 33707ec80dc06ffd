/// What a ``Navigator`` tells its observers after each step it carried out.
public struct NavigationEvent: Sendable {
    /// The step's index since the Navigator was created.
    public let index: Int
    /// The step, as a trail records it.
    public let step: Step
    /// The state after the step.
    public let state: NavigationState
    /// What the rules could not do as asked (empty when all went as asked).
    public let anomalies: [NavigationAnomaly]
}
