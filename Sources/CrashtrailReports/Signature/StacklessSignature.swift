/// The signature of a crash whose crashed thread has no frames (SPEC section 15): its head, then ` @ screen:NAME`
/// naming the screen on top at the crash when its trail says, else ` @ (no frames)`.
///
/// The store knows this form because a trail that joins a stored report later may name the crash screen, and the
/// report's group follows.
package enum StacklessSignature {
    /// What follows the head when the screen at the crash is not known.
    package static let noFrames = " @ (no frames)"
    /// What follows the head before the name of the screen at the crash.
    package static let screenMarker = " @ screen:"

    /// `head @ screen:NAME`, or `head @ (no frames)` when `crashScreen` is nil or empty.
    package static func make(head: String, crashScreen: String?) -> String {
        guard let crashScreen, !crashScreen.isEmpty else { return head + noFrames }
        return head + screenMarker + crashScreen
    }

    /// The head of a stackless signature, or nil when `signature` names frames.
    package static func head(of signature: String) -> String? {
        if signature.hasSuffix(noFrames) { return String(signature.dropLast(noFrames.count)) }
        guard let marker = signature.firstRange(of: screenMarker) else { return nil }
        return String(signature[..<marker.lowerBound])
    }

    /// `signature` with the screen at the crash replaced by `crashScreen` when it is stackless; else unchanged.
    package static func renamed(_ signature: String, crashScreen: String?) -> String {
        guard let head = head(of: signature) else { return signature }
        return make(head: head, crashScreen: crashScreen)
    }
}
