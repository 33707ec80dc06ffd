import ArgumentParser
import CrashtrailServer

/// `crashtrail serve`'s limits on what each project may send and what the service keeps (docs/SECURITY.md).
struct ServeLimitOptions: ParsableArguments {
    @Option(name: .long, help: "The events a minute a project may send, unless crashtrail project limit set its own; 0 for no limit.")
    var eventsPerMinute = 6_000

    @Option(name: .long, help: "The trail files a minute a project may post; 0 for no limit.")
    var trailsPerMinute = 60_000

    @Option(name: .long, help: "The envelopes a minute a project may send with sessions and no event; 0 for no limit.")
    var sessionsPerMinute = 60_000

    @Option(
        name: .long,
        help: ArgumentHelp("The MiB of uploaded debug-file chunks a project may keep before they are assembled.", valueName: "mib"))
    var uploadQuota = 2048

    @Option(name: .long, help: ArgumentHelp("The largest debug file, in MiB, assembled from uploaded chunks.", valueName: "mib"))
    var maxDebugFile = 2048

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The free disk, in MiB, below which reports are refused (503) before anything is written; 0 for none.", valueName: "mib"))
    var minFreeDisk = 256

    @Option(
        name: .long, help: ArgumentHelp("The most MiB the quarantine keeps; refused payloads past it are not copied.", valueName: "mib"))
    var quarantineLimit = 256

    /// The limits, with sizes in MiB held to what a 64-bit byte count takes and rates of 0 or more.
    var trust: ServeOptions.Trust {
        func mebibytes(_ value: Int, least: Int) -> Int64 { Int64(min(max(least, value), 1 << 40)) << 20 }
        return ServeOptions.Trust(
            eventsPerMinute: max(0, eventsPerMinute), trailsPerMinute: max(0, trailsPerMinute),
            uploadQuota: mebibytes(uploadQuota, least: 1), maximumDebugFile: mebibytes(maxDebugFile, least: 1),
            minimumFreeDisk: mebibytes(minFreeDisk, least: 0), quarantineLimit: mebibytes(quarantineLimit, least: 0),
            sessionsPerMinute: max(0, sessionsPerMinute))
    }
}
