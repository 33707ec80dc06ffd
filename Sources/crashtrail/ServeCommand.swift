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
              crashtrail serve --forward https://KEY@sentry.example.com/42
              curl -H 'Authorization: Bearer KEY' --data-binary @crash.ips http://127.0.0.1:8000/api/1/reports
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
            "The token the pages and JSON ask for (Authorization: Bearer TOKEN, or basic authentication's password). Defaults to $CRASHTRAIL_READ_TOKEN; listening beyond loopback without one makes one and prints it.",
            valueName: "token"))
    var readToken: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Forward every stored report, enriched with its trail, to this Sentry-compatible DSN (repeat for several upstreams; docs/FORWARD.md).",
            valueName: "dsn"))
    var forward: [String] = []

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

    @Option(name: .long, help: "The most trails kept waiting for their crashes; more are answered 429.")
    var trailWaitLimit = 10_000

    @Flag(name: .long, help: "Log only warnings and errors.")
    var quiet = false

    func run() async throws {
        let server = try reportingFailure {
            let (host, port) = try ServeOptions.listenAddress(listen)
            let projects = try project.map(ServeOptions.project)
            let options = ServeOptions(
                host: host, port: port, projects: projects, publicURL: publicURL, quarantineDirectory: quarantine,
                backlog: backlog, idleTimeout: .seconds(max(1, idleTimeout)),
                readToken: readToken ?? ProcessEnvironment.current()["CRASHTRAIL_READ_TOKEN"].flatMap { $0.isEmpty ? nil : $0 },
                forward: forward, forwardGrouping: forwardGrouping, forwardHold: .seconds(max(0, forwardHold)),
                trailWait: .seconds(max(0, trailWait) * 3600), maximumWaitingTrails: trailWaitLimit)
            var logger = Logger(label: "crashtrail.serve")
            logger.logLevel = quiet ? .warning : .info
            let service = try TriageService(location: storeOptions.location, creating: true)
            return try CollectorServer(service: service, manifests: try manifests.load(), options: options, logger: logger)
        }
        do {
            try await server.run { started in
                var lines = ["crashtrail serve is listening on \(started.host):\(started.port)"]
                for (project, dsn) in started.dsns { lines.append("DSN of project \(project.id) (\(project.name)): \(dsn)") }
                if let token = started.readToken { lines.append("Read token (pages and /api/0/): \(token)") }
                // Written at once, not through print's buffer: a supervisor or a test reads the DSN while the service runs.
                FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            }
        } catch {
            printError("Error: the service stopped: \(error)")
            throw ExitCode.failure
        }
    }
}
