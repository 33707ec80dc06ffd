/// A step as the body holds it, before its time is read: the op byte and the one value it names.
///
/// The decoder keeps these rather than `Step.Operation` values, so it can write each step's canonical JSON from
/// its tables' indexes without copying the step's destination out of an enum.
struct StepCode {
    /// The op byte (BodyCode).
    let op: UInt8
    /// For a destination op, its destination table index; for an `open url`, its URL table index; for `select`,
    /// the tab; for `satisfy` and `revoke`, the condition table index; otherwise 0.
    let argument: Int64
}
