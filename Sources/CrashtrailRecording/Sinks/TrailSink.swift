/// Where a recorder hands the current trail after each step: in the form the app's crash reporter carries
/// (SPEC section 7), to a closure that gives it to the reporter's SDK in one line.
///
/// ```swift
/// recorder.addSink(.keys { keys in for (key, value) in keys { Crashlytics.crashlytics().setCustomValue(value, forKey: key) } })
/// recorder.addSink(.text { text in SentrySDK.configureScope { $0.setContext(value: ["trail": text], key: "crashtrail") } })
/// recorder.addSink(.text { text in KSCrash.shared.userInfo = ["crashtrail": text] })
/// recorder.addSink(.binary { bytes in try? Data(bytes).write(to: sidecarURL, options: .atomic) })
/// ```
///
/// Sinks run on a background queue, never on the thread that records: each gets the latest trail (with `final`,
/// the state after its last step) soon after a step, and a burst of steps is handed over once, as its last
/// trail. The journal, not a sink, is what survives a kill; a sink's value is what a reporter sends with a crash
/// its handler catches.
public struct TrailSink: Sendable {
    /// The form a sink takes.
    public enum Form: Sendable, Hashable {
        /// Split keys `crashtrail.0…N` of at most `limit` characters each (Crashlytics custom keys).
        case keys(limit: Int)
        /// `ct1:` text (KSCrash `user.crashtrail`, a Sentry context `crashtrail.trail`, any string field).
        case text
        /// The binary form (a Sentry attachment `crashtrail.ctr`, a sidecar `.ctr` file beside an `.ips`).
        case binary
    }

    /// What a sink is handed.
    public enum Output: Sendable, Hashable {
        /// Every `crashtrail.N` key to set; keys a shorter trail no longer uses come with an empty value, since
        /// reporters cannot remove a key.
        case keys([String: String])
        case text(String)
        case binary([UInt8])
    }

    public let form: Form
    let deliver: @Sendable (Output) -> Void

    /// A sink of any form, handed its ``Output``.
    public init(form: Form, deliver: @escaping @Sendable (Output) -> Void) {
        self.form = form
        self.deliver = deliver
    }

    /// Split keys for Crashlytics custom keys (1,024 characters a value by default).
    public static func keys(limit: Int = 1024, _ set: @escaping @Sendable ([String: String]) -> Void) -> TrailSink {
        TrailSink(form: .keys(limit: limit)) { output in if case .keys(let keys) = output { set(keys) } }
    }

    /// `ct1:` text, for KSCrash's `user.crashtrail` or a Sentry context.
    public static func text(_ set: @escaping @Sendable (String) -> Void) -> TrailSink {
        TrailSink(form: .text) { output in if case .text(let text) = output { set(text) } }
    }

    /// The binary form, for a Sentry attachment or a sidecar `.ctr` file.
    public static func binary(_ set: @escaping @Sendable ([UInt8]) -> Void) -> TrailSink {
        TrailSink(form: .binary) { output in if case .binary(let bytes) = output { set(bytes) } }
    }
}
