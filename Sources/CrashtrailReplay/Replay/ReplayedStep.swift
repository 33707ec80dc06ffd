public import CrashtrailCore

/// One kept step of a trail as the replay saw it: what it asked for and where it left the top stack
/// (SPEC section 9, `steps`).
public struct ReplayedStep: Hashable, Sendable {
    /// The step's index, counted from 0 within the kept steps.
    public var index: Int
    /// Milliseconds since the session started.
    public var t: Int64
    /// The op's name as the trail writes it (`push`, `open`, …).
    public var op: String
    /// The destination a `push`, `present` or `open` asked for (parsed from its URL for an open by URL).
    public var to: Destination?
    /// The recorded URL of an open by URL, else the printed URL of ``to``, else nil.
    public var url: String?
    /// The top stack's last destination after the step.
    public var top: Destination?
    /// The top stack's length after the step.
    public var depth: Int
    /// How many modals are presented after the step.
    public var modals: Int
    /// The kinds of the step's anomalies, in SPEC order.
    public var anomalies: [NavigationAnomaly.Kind]
    /// For ops without a destination, their argument as people read it (`tab 1`, `success`, `signedIn`);
    /// not part of the JSON form.
    public var argument: String?
    /// Whether `to` holds a recorder's stand-in for a redacted value (SPEC section 12).
    public var redacted: Bool

    /// A replayed step.
    /// - Parameters:
    ///   - index: the step's index within the kept steps.
    ///   - t: its time in milliseconds since the session started.
    ///   - op: the op's name.
    ///   - to: the destination it asked for, if any.
    ///   - url: its URL, if any.
    ///   - top: the top destination after it.
    ///   - depth: the top stack's length after it.
    ///   - modals: the modal count after it.
    ///   - anomalies: its anomaly kinds.
    ///   - argument: the argument of an op without a destination.
    ///   - redacted: whether `to` holds a stand-in for a redacted value.
    public init(
        index: Int, t: Int64, op: String, to: Destination?, url: String?, top: Destination?, depth: Int, modals: Int,
        anomalies: [NavigationAnomaly.Kind], argument: String? = nil, redacted: Bool = false
    ) {
        self.redacted = redacted
        self.index = index
        self.t = t
        self.op = op
        self.to = to
        self.url = url
        self.top = top
        self.depth = depth
        self.modals = modals
        self.anomalies = anomalies
        self.argument = argument
    }
}
