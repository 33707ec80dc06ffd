import ArgumentParser
import CrashtrailCore
import CrashtrailServer

/// `crashtrail serve`'s forwarding to upstream trackers (docs/FORWARD.md).
struct ServeForwardOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Forward every stored report, enriched with its trail, to this Sentry-compatible DSN (repeat for several upstreams; docs/FORWARD.md). The DSN holds a key, which others on the machine see in ps: prefer --forward-file or $CRASHTRAIL_FORWARD.",
            valueName: "dsn"))
    var forward: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A file of upstream DSNs to forward to, one a line (# starts a comment), readable by the service's user only.",
            valueName: "path"))
    var forwardFile: String?

    @Flag(
        name: .long,
        help: "With --forward: send crashtrail's signature as the events' fingerprint, so the upstream groups as crashtrail does.")
    var forwardGrouping = false

    @Option(
        name: .long, help: "With --forward: seconds a report without a trail waits for its trail file before it is forwarded without one.")
    var forwardHold = 30

    /// The upstream DSNs: `--forward`, then `--forward-file`'s, then `CRASHTRAIL_FORWARD`'s.
    /// - Parameter environment: the process's environment.
    /// - Returns: the DSNs, in that order.
    /// - Throws: when the file cannot be read or is readable by others.
    func upstreams(environment: [String: String]) throws -> [String] {
        try forward + ServeOptions.upstreams(file: forwardFile, environment: environment["CRASHTRAIL_FORWARD"])
    }

    /// How long a report without a trail waits for it, held to a day.
    var hold: Duration { .seconds(min(max(0, forwardHold), 86_400)) }
}
