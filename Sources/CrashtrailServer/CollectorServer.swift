import CrashtrailCore
import CrashtrailEncoding
import CrashtrailForward
import CrashtrailIntake
import CrashtrailService
import CrashtrailStore
import CrashtrailSymbols
import Dispatch
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// `crashtrail serve`: the collector as an HTTP service (SPEC section 14), over the same operations as the command
/// line.
///
/// It takes reports by Sentry's protocol and as any payload `crashtrail ingest` reads, stores them in group commits,
/// answers only once they are durable, and stops on SIGTERM or SIGINT after answering what is in flight.
///
/// ```swift
/// let service = try TriageService(location: StoreLocation(nil), creating: true)
/// let server = try CollectorServer(service: service, manifests: [], options: ServeOptions(port: 8000))
/// try await server.run { started in print(started.dsns) }
/// ```
public struct CollectorServer: Sendable {
    /// What the service says once it listens.
    public struct Started: Sendable {
        /// The address it listens on, with the port it took.
        public var host: String
        public var port: Int
        /// Each project accepted, with its DSN.
        public var dsns: [(project: Project, dsn: String)]
        /// Whether anyone may read the pages, JSON and metrics (`--public-read`); else they take a token.
        public var publicRead: Bool
    }

    let service: TriageService
    var options: ServeOptions
    let routes: IntakeRoutes
    let debugFiles: DebugFileRoutes
    let metrics: ServerMetrics
    let logger: Logger
    /// Who may read the pages, JSON and metrics.
    let access: ReadAccess
    /// Sends the forwarding outbox, when `--forward` names upstreams.
    let forwarder: Forwarder?

    /// The forwarding outbox's sender and its HTTP client.
    struct Forwarder: Sendable {
        var worker: ForwardWorker
        var client: UpstreamClient
    }

    /// Prepares the service: its projects, manifests and trail decoder.
    ///
    /// The projects are those given, or the store's; the manifests are kept in the store, as ingest keeps them. Reads
    /// take a token unless `options.publicRead` opens them.
    /// - Throws: `StoreError`; `ForwardError` for an upstream DSN that cannot be used.
    public init(
        service: TriageService, manifests: [LoadedManifest], options: ServeOptions,
        logger: Logger = Logger(label: "crashtrail.serve")
    ) throws {
        for loaded in manifests { try service.store.addManifest(loaded.manifest, text: loaded.text) }
        let codec = try service.codec(given: manifests.map(\.manifest))
        // The grouping rules and merges, read again every few seconds: `crashtrail grouping set` and `group merge`
        // need no restart.
        let grouping = GroupingSource.live(try LiveGroupingRules(store: service.store, time: service.time))
        let projects =
            options.projects.isEmpty
            ? try ProjectRegistry(store: service.store, time: service.time)
            : try ProjectRegistry(fixed: options.projects, store: service.store, time: service.time)
        let metrics = ServerMetrics()
        self.service = service
        self.options = options
        self.metrics = metrics
        self.logger = logger
        // Without llvm-symbolizer, or with a store whose debug files cannot be read, reports are stored unsymbolicated
        // and wait for a service that can.
        // A request waits for a symbolizer another request uses at most one deadline, then stores its report unnamed.
        let deadline = LLVMSymbolizer.deadline(environment: ProcessEnvironment.current(), otherwise: LLVMSymbolizer.serviceDeadline)
        let symbolicator: Symbolicator?
        do {
            symbolicator = try Symbolicator(store: service.store, deadline: deadline, busyWait: deadline)
        } catch {
            symbolicator = nil
            logger.error(
                "could not start symbolication: reports are stored without function names until a restart that can",
                metadata: ["error": "\(error)"])
        }
        if let symbolicator, !symbolicator.canSymbolicate {
            logger.warning(
                "llvm-symbolizer was not found: reports are stored without function names from debug files; install llvm or set CRASHTRAIL_LLVM_SYMBOLIZER"
            )
        }
        let worker = SymbolicationWorker(
            importer: DebugFileImport(store: service.store, decoder: codec, grouping: grouping), symbolicator: symbolicator, logger: logger)
        let uploadLimits = ChunkedUpload.Limits(
            projectQuota: options.trust.uploadQuota, chunkLifetime: options.trust.chunkLifetime,
            maximumFileSize: options.trust.maximumDebugFile)
        debugFiles = DebugFileRoutes(
            projects: projects,
            upload: ChunkedUpload(store: service.store, decoder: codec, grouping: grouping, limits: uploadLimits),
            symbolication: worker, metrics: metrics, logger: logger)
        access = ReadAccess(isPublic: options.publicRead, operatorToken: options.readToken, projects: projects)
        var policy = GroupCommitter.Policy.serve(backlog: options.backlog, batchSize: options.batchSize)
        let upstreams = try options.forward.map { dsn throws(ForwardError) in try UpstreamDSN(dsn) }
        policy.forwardTo = upstreams.map(\.identity)
        let committer = GroupCommitter(store: service.store, policy: policy, time: service.time)
        if upstreams.isEmpty {
            forwarder = nil
        } else {
            let client = UpstreamClient()
            let preparation = TriageService.ForwardPreparation(
                builder: SentryEventBuilder(grouping: options.forwardGrouping),
                hold: Int64(options.forwardHold.components.seconds) * 1000, publicURL: options.publicURL,
                manifests: Self.storedManifests(service, logger: logger))
            var forwarding = ForwardWorker.Options()
            forwarding.runsInBackground = true
            let worker = ForwardWorker(
                // On SQLite, forwarding's claims and settlements ride in the group commits: SQLite has one writer, which
                // they would otherwise take between intake's commits. On PostgreSQL they keep transactions of their own,
                // so that a claim's row locks stay out of intake's transactions.
                store: service.store, outbox: service.location.isPostgres ? nil : CommittedOutbox(committer: committer),
                upstreams: upstreams, client: client,
                options: forwarding, time: service.time, logger: logger
            ) { [service] claim in
                service.prepareForwarding(claim, preparation, now: service.time.now())
            }
            forwarder = Forwarder(worker: worker, client: client)
        }
        routes = IntakeRoutes(
            projects: projects,
            committer: committer,
            processor: PayloadProcessor(
                decoder: codec, maximumTrailSteps: options.maximumTrailSteps, symbolicator: symbolicator, grouping: grouping),
            decoder: codec,
            quarantine: Quarantine(directory: URL(fileURLWithPath: options.quarantineDirectory)), options: options,
            metrics: metrics, logger: logger, time: service.time,
            admission: IntakeAdmission(
                trust: options.trust, backlog: options.backlog,
                folders: (service.location.isPostgres ? [] : [(service.location.name as NSString).deletingLastPathComponent])
                    .map { $0.isEmpty ? "." : $0 } + [options.quarantineDirectory],
                metrics: metrics, time: service.time),
            quarantineBudget: QuarantineBudget(
                folder: URL(fileURLWithPath: options.quarantineDirectory), limit: options.trust.quarantineLimit))
    }

    /// The manifests the store keeps, for the links of forwarded events; none, and said in the log, when the store
    /// cannot read them: forwarding goes on without replay links rather than not at all.
    private static func storedManifests(_ service: TriageService, logger: Logger) -> [Manifest] {
        do {
            return try service.store.storedManifests()
        } catch {
            logger.error(
                "could not read the stored manifests: forwarded events carry no replay links", metadata: ["error": "\(error)"])
            return []
        }
    }

    /// The routes, for a server or a test.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics, time: service.time))
        let routes = routes
        let service = service
        router.get("/health") { _, _ in Response.json(#"{"status":"ok"}"#) }
        let access = access
        router.get("/metrics") { request, _ in
            try access.authorizeService(request)
            // A figure the store cannot read now keeps the value of the scrape before rather than reading as zero.
            let text = metrics.text(
                backlog: routes.committer.backlog, waitingTrails: (try? service.waitingTrailStatus()).map { ($0.count, $0.bytes) },
                awaitingSymbols: try? service.store.countReportsAwaitingStoredDebugFiles(),
                forwarding: try? service.forwardingStatus(), now: service.time.now())
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: text)))
        }
        let api = router.group("api/:project")
        api.post("envelope") { request, context in try await routes.envelope(request, context: context) }
        api.post("store") { request, context in try await routes.storeEvent(request, context: context) }
        api.post("reports") { request, context in try await routes.reports(request, context: context) }
        api.post("trails") { request, context in try await routes.trails(request, context: context) }
        ReadRoutes(service: service, access: access, logger: logger).add(to: router)
        debugFiles.add(to: router)
        return router
    }

    /// The Hummingbird application: the routes over HTTP/1.1, with idle connections closed after
    /// `options.idleTimeout`.
    public func application(onStart: @escaping @Sendable (Started) -> Void = { _ in }) -> some ApplicationProtocol {
        let options = options
        let projects = routes.projects
        let idle = TimeAmount.nanoseconds(Int64(options.idleTimeout.components.seconds) * 1_000_000_000)
        return Application(
            router: router(),
            server: .http1(configuration: .init(idleTimeout: idle)),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "crashtrail"),
            onServerRunning: { [debugFiles] channel in
                // Reports left waiting for a debug file stored while the service was down (or killed midway).
                Task { await debugFiles.symbolication.kick() }
                let port = channel.localAddress?.port ?? options.port
                let base = options.publicURL ?? "http://\(Self.urlHost(options.host)):\(port)"
                onStart(
                    Started(
                        host: options.host, port: port, dsns: projects.active.map { ($0, $0.dsn(base: base)) },
                        publicRead: options.publicRead))
            },
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then stops accepting, answers what is in flight and returns.
    /// - Parameter onStart: told the address and DSNs once the service listens.
    /// - Throws: when the address cannot be bound.
    public func run(onStart: @escaping @Sendable (Started) -> Void = { _ in }) async throws {
        let sweeping = Task { await sweepWaitingTrails() }
        defer { sweeping.cancel() }
        guard let forwarder else {
            try await application(onStart: onStart).runService(gracefulShutdownSignals: [.sigterm, .sigint])
            return
        }
        // The outbox is sent while the service runs; what is left when it stops is sent when it starts again.
        let sending = Task { await forwarder.worker.run() }
        var failure: (any Error)?
        do {
            try await application(onStart: onStart).runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch {
            failure = error
        }
        sending.cancel()
        _ = await sending.value
        await forwarder.client.shutdown()
        if let failure { throw failure }
    }

    /// Every minute, from the start: joins the trails that wait though their crash is stored (a trail and its crash
    /// committed at the same instant by two services of one shared store do not see each other), forgets upload chunks
    /// no assemble used within their lifetime, and symbolicates again the reports whose symbolizer failed.
    private func sweepWaitingTrails() async {
        // All at the start; then those received since the sweep before, less a margin for other workers' clocks.
        var since: Int64 = 0
        while !Task.isCancelled {
            let started = service.time.now()
            do {
                let joined = try service.sweepWaitingTrails(tolerance: options.joinTolerance, since: since)
                if !joined.isEmpty {
                    logger.info("joined trails that waited for crashes stored meanwhile", metadata: ["count": "\(joined.count)"])
                }
                since = started - 60_000
            } catch {
                logger.error("could not join the trails waiting for their crashes", metadata: ["error": "\(error)"])
            }
            do {
                let expired = try debugFiles.upload.expireChunks()
                if expired > 0 { logger.info("forgot upload chunks no assemble used", metadata: ["count": "\(expired)"]) }
            } catch {
                logger.error("could not forget expired upload chunks", metadata: ["error": "\(error)"])
            }
            // Reports stored while the symbolizer timed out or died wait for a run that can name their frames.
            if debugFiles.symbolication.canSymbolicate { await debugFiles.symbolication.kick() }
            try? await Task.sleep(for: .seconds(60))
        }
    }

    /// A host as a URL names it: an IPv6 address in brackets, `0.0.0.0` as this machine's loopback.
    static func urlHost(_ host: String) -> String {
        if host == "0.0.0.0" || host == "::" { return "127.0.0.1" }
        return host.contains(":") ? "[\(host)]" : host
    }
}

/// Counts every answer by endpoint and status, and times it.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    let time: TimeSource

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = time.uptimeNanoseconds()
        let endpoint = Self.endpoint(request.uri.path)
        func answered(_ status: Int) {
            metrics.answered(endpoint: endpoint, status: status, nanoseconds: time.uptimeNanoseconds() &- start)
        }
        do {
            let response = try await next(request, context)
            answered(Int(response.status.code))
            return response
        } catch let error as any HTTPResponseError {
            answered(Int(error.status.code))
            throw error
        } catch {
            answered(500)
            throw error
        }
    }

    /// The route a path takes, with the project ID left out: one of a fixed set, so no request can add a series
    /// (SPEC section 19).
    static func endpoint(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        if parts.count >= 3, parts.count <= 4, parts[0] == "api", parts.count == 3 || parts[3].isEmpty {
            if parts[1] == "0", ["groups", "reports", "paths"].contains(parts[2]) { return "/api/0/\(parts[2])" }
            if ["envelope", "store", "reports", "trails"].contains(parts[2]) { return "/api/ID/\(parts[2])" }
        }
        if parts.count == 4, parts[0] == "api", parts[1] == "0", ["show", "replay"].contains(parts[2]) { return "/api/0/\(parts[2])/ID" }
        if parts.count >= 4, parts[0] == "api", parts[1] == "0", parts[2] == "organizations", parts.last == "chunk-upload" {
            return "/api/0/organizations/ORG/chunk-upload"
        }
        if parts.count >= 6, parts[0] == "api", parts[1] == "0", parts[2] == "projects", parts.last == "assemble" {
            return "/api/0/projects/ORG/PROJECT/files/difs/assemble"
        }
        if parts.count == 2, ["groups", "reports"].contains(parts[0]) { return "/\(parts[0])/NAME" }
        return ["/", "/index.html", "/health.html", "/health", "/metrics"].contains(path) ? path : "other"
    }
}
