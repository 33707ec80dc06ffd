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

    @OptionGroup(title: "Limits") var limits: ServeLimitOptions

    @OptionGroup(title: "Forwarding") var forwarding: ServeForwardOptions

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

    func validate() throws {
        if let token = Self.readToken(readToken, environment: ProcessEnvironment.current()), token.utf8.count < 16 {
            throw ValidationError(
                "--read-token (or CRASHTRAIL_READ_TOKEN) must be 16 characters or more; crashtrail project token add --all-projects --scope read makes a strong one"
            )
        }
    }

    /// The operator's read token: `--read-token`, else `CRASHTRAIL_READ_TOKEN` when set and not empty.
    private static func readToken(_ option: String?, environment: [String: String]) -> String? {
        option ?? environment["CRASHTRAIL_READ_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func run() async throws {
        let server = try reportingFailure {
            let (host, port) = try ServeOptions.listenAddress(listen)
            let projects = try project.map(ServeOptions.project)
            let environment = ProcessEnvironment.current()
            let readToken = Self.readToken(readToken, environment: environment)
            let upstreams = try forwarding.upstreams(environment: environment)
            let options = ServeOptions(
                host: host, port: port, projects: projects, publicURL: publicURL, quarantineDirectory: quarantine,
                backlog: backlog, idleTimeout: .seconds(min(max(1, idleTimeout), 86_400)), readToken: readToken,
                publicRead: publicRead, trust: limits.trust,
                forward: upstreams, forwardGrouping: forwarding.forwardGrouping, forwardHold: forwarding.hold,
                trailWait: .seconds(min(max(0, trailWait), 24 * 3650) * 3600), maximumWaitingTrails: trailWaitLimit)
            var logger = Logger(label: "crashtrail.serve", factory: DeferredMetadataLogHandler.standardError)
            logger.logLevel = quiet ? .warning : .info
            let service = try TriageService(location: storeOptions.location, creating: true)
            return try CollectorServer(service: service, manifests: try manifests.load(), options: options, logger: logger)
        }
        do {
            try await server.run { started in
                // Written at once, not through print's buffer: a supervisor or a test reads the DSN while the service runs.
                FileHandle.standardOutput.write(Data((ServeText.started(started) + "\n").utf8))
            }
        } catch {
            printError("Error: the service stopped: \(error)")
            throw ExitCode.failure
        }
    }
}
