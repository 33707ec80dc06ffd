import ArgumentParser
import CrashtrailCore
import CrashtrailIntake
import CrashtrailServer
import CrashtrailService
import CrashtrailStore
import Foundation
import Logging

/// `crashtrail serve`: the collector as a service that crash reporters send to (SPEC section 14).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Accept crash reports over HTTP as they arrive: Sentry's protocol and every format ingest reads.",
        discussion: """
            Point an app's Sentry SDK at a DSN it prints at start, or post payloads to /api/ID/reports and trail \
            files to /api/ID/trails with Authorization: Bearer KEY. A report is answered 200 only once it is \
            stored durably; SIGTERM or SIGINT stops accepting, answers what is in flight and exits 0. Projects and \
            their keys are kept in the store (crashtrail project add NAME); without --project, the store's are \
            used, and one named default is made when it has none. docs/SERVE.md shows how to run it. Examples:

              crashtrail serve
              crashtrail serve --listen 0.0.0.0:8000 \\
                --store postgres://crashtrail@db/crashes --manifest manifests/ \\
                --public-url https://crashes.example.com
              crashtrail serve --forward-file /etc/crashtrail/upstreams
              curl -H 'Authorization: Bearer KEY' --data-binary @crash.ips \\
                http://127.0.0.1:8000/api/1/reports

            Reads (pages, /api/0/, /metrics) take a token with the read scope \
            (crashtrail project token add PROJECT --scope read), on loopback too; --public-read opens them. \
            docs/SECURITY.md lists every limit and its default.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The address and port to listen on; port 0 takes a free one.", valueName: "host:port"))
    var listen = "127.0.0.1:8000"

    @OptionGroup var manifests: ManifestOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A project to accept, with its key, instead of the store's projects (repeat for several).", valueName: "id=key"))
    var project: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The address clients reach the service by, when it is not the one it listens on (a reverse proxy's); the DSNs printed use it.",
            valueName: "url"))
    var publicURL: String?

    @Option(name: .long, help: ArgumentHelp("Where refused payloads are copied, each with a reason file beside it.", valueName: "dir"))
    var quarantine = IntakeDefaults.quarantineDirectory

    @Option(name: .long, help: "How many reports may wait to be stored before requests are answered 429.")
    var backlog = 4096

    @Option(name: .long, help: "Seconds a connection may stay silent before it is closed.")
    var idleTimeout = 30

    @Option(
        name: .long,
        help: ArgumentHelp(
            "An operator's token that opens the pages, JSON and /metrics (Authorization: Bearer TOKEN, or basic authentication's password), beside the store's read tokens. Defaults to $CRASHTRAIL_READ_TOKEN; never printed.",
            valueName: "token"))
    var readToken: String?

    @Flag(name: .long, help: "Let anyone read the pages, JSON and /metrics, without a token.")
    var publicRead = false

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

    @Option(
        name: .long,
        help:
            "Hours a posted trail that no stored crash awaits is kept for its crash, which joins it when it comes (the journal is often uploaded before the crash report)."
    )
    var trailWait = 168

    @Option(name: .long, help: "The most trails of a project kept waiting for their crashes; more are answered 429.")
    var trailWaitLimit = 10_000

    @Flag(name: .long, help: "Log only warnings and errors.")
    var quiet = false

    func run() async throws {
        let server = try reportingFailure {
            let (host, port) = try ServeOptions.listenAddress(listen)
            let projects = try project.map(ServeOptions.project)
            let environment = ProcessEnvironment.current()
            let readToken = readToken ?? environment["CRASHTRAIL_READ_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            if let readToken, readToken.utf8.count < 16 {
                throw ValidationError(
                    "--read-token (or CRASHTRAIL_READ_TOKEN) must be 16 characters or more; crashtrail project token add --all-projects --scope read makes a strong one"
                )
            }
            // Sizes in MiB, held to what a 64-bit byte count takes.
            func mebibytes(_ value: Int, least: Int) -> Int64 { Int64(min(max(least, value), 1 << 40)) << 20 }
            let upstreams = try forward + ServeOptions.upstreams(file: forwardFile, environment: environment["CRASHTRAIL_FORWARD"])
            let trust = ServeOptions.Trust(
                eventsPerMinute: max(0, eventsPerMinute), trailsPerMinute: max(0, trailsPerMinute),
                uploadQuota: mebibytes(uploadQuota, least: 1), maximumDebugFile: mebibytes(maxDebugFile, least: 1),
                minimumFreeDisk: mebibytes(minFreeDisk, least: 0), quarantineLimit: mebibytes(quarantineLimit, least: 0),
                sessionsPerMinute: max(0, sessionsPerMinute))
            let options = ServeOptions(
                host: host, port: port, projects: projects, publicURL: publicURL, quarantineDirectory: quarantine,
                backlog: backlog, idleTimeout: .seconds(min(max(1, idleTimeout), 86_400)), readToken: readToken,
                publicRead: publicRead, trust: trust,
                forward: upstreams, forwardGrouping: forwardGrouping, forwardHold: .seconds(min(max(0, forwardHold), 86_400)),
                trailWait: .seconds(min(max(0, trailWait), 24 * 3650) * 3600), maximumWaitingTrails: trailWaitLimit)
            var logger = Logger(label: "crashtrail.serve", factory: DeferredMetadataLogHandler.standardError)
            logger.logLevel = quiet ? .warning : .info
            let service = try TriageService(location: storeOptions.location, creating: true)
            return try CollectorServer(service: service, manifests: try manifests.load(), options: options, logger: logger)
        }
        do {
            try await server.run { started in
                var lines = ["crashtrail serve is listening on \(started.host):\(started.port)"]
                for (project, dsn) in started.dsns { lines.append("DSN of project \(project.id) (\(project.name)): \(dsn)") }
                // A token is never printed: reads take one the operator made (or gave), unless they are public.
                lines.append(
                    started.publicRead
                        ? "Reads (pages, /api/0/, /metrics) are open to anyone (--public-read)"
                        : "Reads (pages, /api/0/, /metrics) take a token with the read scope: crashtrail project token add PROJECT --scope read"
                )
                // Written at once, not through print's buffer: a supervisor or a test reads the DSN while the service runs.
                FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            }
        } catch {
            printError("Error: the service stopped: \(error)")
            throw ExitCode.failure
        }
    }
}
