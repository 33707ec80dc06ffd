import CrashtrailCore
import CrashtrailEncoding
import CrashtrailFormats
import CrashtrailIntake
import CrashtrailReports
import CrashtrailStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The routes that take reports in (SPEC section 14): Sentry's `envelope` and `store` endpoints, any payload
/// `crashtrail ingest` reads (`reports`) and trail files to join (`trails`).
///
/// Each request is read whole (within Sentry's limits), authorized, parsed, and answered once its reports are
/// committed by the ``GroupCommitter``.
struct IntakeRoutes: Sendable {
    let projects: ProjectRegistry
    let committer: GroupCommitter
    let processor: PayloadProcessor
    let decoder: any TrailDecoding
    let quarantine: Quarantine
    let options: ServeOptions
    let metrics: ServerMetrics
    let logger: Logger
    /// The clock that decides which session starts are recent enough to count.
    let time: TimeSource
    /// The disk's floor, each project's rates and share of the backlog: every refusal to retry.
    let admission: IntakeAdmission
    /// The most the quarantine keeps.
    let quarantineBudget: QuarantineBudget

    /// The largest `session` or `sessions` item counted (Sentry's Relay takes 100 KB).
    static let maximumSessionItem = 100 * 1024
    /// The most `session` and `sessions` items one envelope has counted (Sentry's SDKs send at most 100).
    static let maximumSessionItems = 100

    /// Takes `POST /api/ID/envelope/`, a Sentry envelope.
    ///
    /// Envelopes without an `event` item (sessions, transactions, client reports) are accepted and not stored.
    func envelope(_ request: Request, context: some RequestContext) async throws -> Response {
        let projectID = context.parameters.get("project") ?? ""
        // The key is checked from the headers before a byte of the body is read (SPEC section 19). An envelope that
        // carries its key only in its own header (`dsn`) is read first, within an event's limit.
        let early = try sentryKey(request).map { key throws(RequestError) in try projects.authorize(projectID: projectID, key: key) }
        try admission.checkRoom()
        var limits = options.limits
        if early == nil {
            limits.compressedBody = min(limits.compressedBody, limits.eventItem)
            limits.decompressedBody = min(limits.decompressedBody, limits.eventItem)
        }
        let body = try await RequestBodyReader.read(
            request, limits: limits,
            what: early == nil ? "an envelope without X-Sentry-Auth (send the key in that header to send more)" : "a request")
        let summary: SentryEnvelopeSummary
        do {
            summary = try body.withUnsafeBufferPointer { buffer throws(RejectionError) in try SentryEnvelopeSummary(buffer) }
        } catch {
            let project = try early ?? projects.authorize(projectID: projectID, key: nil)
            throw try refuse(body, source: source("envelope", project.id.description, body), reason: error)
        }
        let project = try early ?? projects.authorize(projectID: projectID, key: summary.dsn.flatMap(ProjectKey.fromDSN))
        let sessions = sessionTally(summary, body)
        for (index, item) in summary.items.enumerated() where item.type == "event" && item.size > options.limits.eventItem {
            // Sentry's SDKs drop what is refused: the sessions the envelope carries are counted all the same.
            try await countRefusedEventsSessions(sessions, project: project)
            throw RequestError.tooLarge(
                "envelope item \(index) (event) is \(item.size) bytes, over Sentry's limit of \(options.limits.eventItem) bytes for an event"
            )
        }
        guard summary.carriesEvent else {
            // Transactions and client reports carry no crash: accepted, not stored. Sessions are counted, within the
            // project's rate of session envelopes (Relay's `session` category, which Sentry's SDKs hold back on).
            if !sessions.isEmpty {
                try admission.admit(.sessions, project)
                _ = try await commit(.sessions(sessions, project: project.id), project: project)
            }
            return Response.json(
                CanonicalJSON.string(of: .object(["id": summary.eventID.map { .string(Self.sentryEventID($0)) } ?? .null])))
        }
        do {
            try admission.admit(.events, project)
        } catch {
            // Sessions are a category of their own, which the event's rate limit does not hold back (as Relay's).
            try await countRefusedEventsSessions(sessions, project: project)
            throw error
        }
        // The event ID names the source when the header has one: hashing the body for a name would cost a second hash.
        let name =
            summary.eventID.map { "api/\(project.id)/envelope/\(Self.sentryEventID($0))" }
            ?? source("envelope", project.id.description, body)
        // The sessions are counted in the transaction that stores the event (or alone, when the event is refused: Sentry's
        // SDKs drop a refused envelope, and its sessions happened all the same).
        // The parse reuses the framing read above.
        let ids = try await store(
            body, source: name, sentry: true, project: project, with: sessions.isEmpty ? [] : [.sessions(sessions, project: project.id)],
            envelope: summary)
        return Self.eventAnswer(summary.eventID ?? ids.first)
    }

    /// Counts the sessions of an envelope whose event was refused, within the project's rate of session envelopes.
    ///
    /// A client past its events' limit thus cannot write sessions without bound. Past that rate they are dropped, as
    /// the refused event is.
    private func countRefusedEventsSessions(_ sessions: SessionTally, project: Project) async throws {
        guard !sessions.isEmpty, admission.take(.sessions, project) else { return }
        _ = try await commit(.sessions(sessions, project: project.id), project: project)
    }

    /// The sessions of an envelope's `session` and `sessions` items (SPEC section 20).
    ///
    /// An item that cannot be read is
    /// left out, logged and counted in `/metrics`, as Sentry drops it: the rest of the envelope still counts.
    private func sessionTally(_ summary: SentryEnvelopeSummary, _ body: [UInt8]) -> SessionTally {
        var tally = SessionTally(accepted: SessionTally.window(at: time.now()))
        var counted = 0
        var refused = 0
        for (index, item) in summary.items.enumerated() where item.type == "session" || item.type == "sessions" {
            do {
                guard item.size <= Self.maximumSessionItem else {
                    throw SessionTally.ItemError(
                        "the item is \(item.size) bytes, over the \(Self.maximumSessionItem) a session item may take")
                }
                guard counted < Self.maximumSessionItems else {
                    throw SessionTally.ItemError("the envelope carries more than \(Self.maximumSessionItems) session items")
                }
                // Sentry's SDKs may write a session's `duration` in fractional seconds; nothing else is fractional.
                let value = try JSONParser.parse(body[item.payload], ignoredNumberKeys: ["duration"])
                if item.type == "session" { try tally.add(update: value) } else { try tally.add(aggregate: value) }
                counted += 1
            } catch {
                refused += 1
                logger.notice("left out an unreadable session item", metadata: ["item": "\(index)", "error": "\(error)"])
            }
        }
        metrics.sessionItems(counted: counted, refused: refused)
        return tally
    }

    /// `POST /api/ID/store/`: one Sentry event.
    func storeEvent(_ request: Request, context: some RequestContext) async throws -> Response {
        let projectID = context.parameters.get("project") ?? ""
        let project = try projects.authorize(projectID: projectID, key: sentryKey(request))
        try admission.checkRoom()
        try admission.admit(.events, project)
        var limits = options.limits
        limits.decompressedBody = min(limits.decompressedBody, limits.eventItem)
        let body = try await RequestBodyReader.read(request, limits: limits, what: "an event")
        let ids = try await store(body, source: source("store", project.id.description, body), sentry: true, project: project)
        return Self.eventAnswer(ids.first)
    }

    /// `POST /api/ID/reports`: one payload of any format ingest reads, as a file's bytes.
    func reports(_ request: Request, context: some RequestContext) async throws -> Response {
        let projectID = context.parameters.get("project") ?? ""
        let project = try projects.authorize(projectID: projectID, key: bearerKey(request))
        try admission.checkRoom()
        try admission.admit(.events, project)
        let body = try await RequestBodyReader.read(request, limits: options.limits)
        let ids = try await store(body, source: source("reports", project.id.description, body), sentry: false, project: project)
        return Self.idsAnswer(ids)
    }

    /// `POST /api/ID/trails`: a trail file to join to the stored crash it belongs to.
    func trails(_ request: Request, context: some RequestContext) async throws -> Response {
        let projectID = context.parameters.get("project") ?? ""
        let project = try projects.authorize(projectID: projectID, key: bearerKey(request))
        try admission.checkRoom()
        try admission.admit(.trails, project)
        let body = try await RequestBodyReader.read(request, limits: options.limits, what: "a trail file")
        var trail: JoinableTrail
        do {
            trail = try JoinableTrail(bytes: body, decoder: decoder)
            trail.project = project.id
        } catch {
            throw try refuse(body, source: source("trails", project.id.description, body), reason: error)
        }
        if let counted = trail.sessionTrail {
            // The trail of a session that did not crash: counted for its project, joined to nothing (SPEC section 20).
            _ = try await commit(.sessionTrail(counted), project: project)
            metrics.sessionTrailCounted()
            return Response.json(CanonicalJSON.string(of: .object(["ids": .array([]), "counted": .bool(true)])))
        }
        let waits = ReportStore.WaitingTrailLimits(
            maximumCount: options.maximumWaitingTrails, maximumBytes: options.maximumWaitingTrailBytes,
            maximumAge: Int64(options.trailWait.components.seconds) * 1000)
        switch try await commit(.trail(trail, tolerance: options.joinTolerance, answersRepeat: true, waits: waits), project: project) {
        case .trail(let joined?):
            return Self.idsAnswer([joined])
        case .trailWaiting:
            metrics.trailWaits(kept: true)
            // 202: kept, not yet joined; the crash it belongs to joins it when it comes (SPEC section 18).
            return Response.json(
                CanonicalJSON.string(of: .object(["ids": .array([]), "waiting": .bool(true)])), status: .accepted)
        case .trailWaitingFull(let count, let bytes):
            metrics.trailWaits(kept: false)
            let session = trail.decoded.trail.session
            throw IntakeAdmission.refusal(
                .trailsWaitingFull, .tooManyRequests, retryAfter: 3600,
                "no stored crash of \(trail.decoded.trail.app.bundleID) carries session \(session.id) or pid \(session.pid) launched within \(options.joinTolerance) ms of \(session.started), and the trail cannot wait for it: \(count) trails (\(bytes) bytes) of project \(project.id) already wait, the most allowed for a project (--trail-wait-limit); send it again later"
            )
        default:
            throw RequestError(.internalServerError, "the store answered a trail join with reports")
        }
    }

    // MARK: Storing

    /// Parses a payload and stores its reports in the next group commit.
    /// - Parameters:
    ///   - body: the payload's bytes.
    ///   - source: its name in the store and the quarantine.
    ///   - sentry: whether it came by Sentry's protocol, where an event ID already stored is a retry.
    ///   - project: the project it came for, whose share of the backlog it takes.
    ///   - others: more work of the same request, committed in the same transaction (an envelope's sessions).
    ///   - envelope: the framing of `body` when it is a Sentry envelope whose framing was read already.
    /// - Returns: the stored reports' IDs (those already stored included).
    /// - Throws: `RequestError`: 400 for a payload refused (kept in the quarantine), 429 when the backlog (or the project's
    ///   share of it) is full, 503 when the store failed.
    private func store(
        _ body: [UInt8], source: String, sentry: Bool, project: Project, with others: [IntakeWork] = [],
        envelope: SentryEnvelopeSummary? = nil
    ) async throws -> [String] {
        // The writer waits a moment for this request's reports while they are parsed, so they join the next group commit.
        let expectation = committer.expect()
        defer { expectation.withdraw() }
        let (outcomes, _) = body.withUnsafeBufferPointer { processor.process($0, source: source, project: project.id, envelope: envelope) }
        var records: [ReportRecord] = []
        for outcome in outcomes {
            switch outcome {
            case .record(let record): records.append(record)
            case .rejected(let reason, let source, let bytes):
                // The work riding with a refused payload (an envelope's sessions) is kept: its SDK will not send it again.
                if !others.isEmpty { _ = try await commit(together: others, project: project, fulfilling: expectation) }
                throw try refuse(bytes, source: source, reason: reason)
            case .skipped: break
            }
        }
        guard !records.isEmpty else {
            if !others.isEmpty { _ = try await commit(together: others, project: project, fulfilling: expectation) }
            return []
        }
        // A payload of many reports (a JSON-lines file) counts each against the rate limit (one was taken before its
        // body was read), and may not hold more than the project's share of the backlog.
        if records.count > 1 { try admission.admit(.events, project, count: records.count - 1) }
        let share = admission.share(among: projects.active.count)
        guard records.count <= share else {
            throw RequestError.tooLarge(
                "the payload holds \(records.count) reports, more than project \(project.id)'s share of the service's backlog (\(share)); send it in parts of at most \(share) reports"
            )
        }
        let committed = try await commit(
            together: [.reports(records, idDecides: sentry)] + others, project: project, fulfilling: expectation)
        guard case .reports(let inserted, let joinedWaiting)? = committed.first else {
            throw RequestError(.internalServerError, "the store answered reports with a trail join")
        }
        metrics.joinedWaiting(joinedWaiting.count)
        var stored = 0
        let ids = inserted.map { outcome -> String in
            switch outcome {
            case .stored(let id):
                stored += 1
                return id
            case .duplicate(let id): return id
            }
        }
        metrics.committed(stored: stored, duplicates: inserted.count - stored)
        return ids
    }

    /// Submits work to the group commit, turning its failures into answers.
    private func commit(_ work: IntakeWork, project: Project) async throws -> IntakeOutcome {
        guard let outcome = try await commit(together: [work], project: project).first else {
            throw RequestError(.internalServerError, "the store answered no outcome for the work")
        }
        return outcome
    }

    /// Submits works to be committed in one transaction, within the project's share of the backlog, turning its
    /// failures into answers; the submission fulfils `expectation`.
    private func commit(
        together works: [IntakeWork], project: Project, fulfilling expectation: GroupCommitter.Expectation? = nil
    ) async throws -> [IntakeOutcome] {
        let weight = IntakeWork.weight(of: works)
        try admission.reserve(weight, for: project.id, among: projects.active.count)
        defer { admission.release(weight, for: project.id) }
        do {
            return try await committer.submit(together: works, fulfilling: expectation)
        } catch let full as GroupCommitter.BacklogFullError {
            throw admission.backlogFull(waiting: full.waiting)
        } catch {
            // The cause stays in the log: a store's error may name its paths or its server.
            logger.error("a group commit failed", metadata: ["error": "\(error)"])
            throw RequestError(
                .serviceUnavailable,
                "the store could not be written (\(String(describing: type(of: error)))); nothing of this request was kept, send it again"
            )
        }
    }

    /// Keeps a refused payload in the quarantine and makes the 400 answer that names why.
    private func refuse(_ bytes: [UInt8], source: String, reason: RejectionError) throws -> RequestError {
        if quarantineBudget.take(bytes.count) {
            do {
                try bytes.withUnsafeBufferPointer { try quarantine.keep($0, source: source, reason: reason) }
            } catch {
                logger.error("could not quarantine a refused payload", metadata: ["source": "\(source)", "error": "\(error)"])
            }
        } else {
            metrics.refused(.quarantineFull, project: nil)
            logger.warning(
                "the quarantine holds its limit (--quarantine-limit): a refused payload was not copied",
                metadata: ["source": "\(source)", "bytes": "\(bytes.count)"])
        }
        logger.notice("refused a payload", metadata: ["source": "\(source)", "code": "\(reason.code)"])
        return RequestError.badRequest("the payload was refused (\(reason.code)): \(reason.message)")
    }

    // MARK: Requests

    /// The key of a Sentry request: `X-Sentry-Auth`, `Authorization: Sentry …`, or the `sentry_key` query parameter.
    private func sentryKey(_ request: Request) -> String? {
        if let header = request.headers[.sentryAuth], let key = ProjectKey.fromSentryAuth(header) { return key }
        if let header = request.headers[.authorization] {
            if let key = ProjectKey.fromSentryAuth(header) ?? ProjectKey.fromBearer(header) { return key }
        }
        return request.uri.queryParameters.get("sentry_key")
    }

    /// The key of a `reports` or `trails` request: `Authorization: Bearer KEY` (or Sentry's forms).
    private func bearerKey(_ request: Request) -> String? {
        if let header = request.headers[.authorization], let key = ProjectKey.fromBearer(header) { return key }
        return sentryKey(request)
    }

    /// Where a payload came from, as the store and the quarantine name it: `api/ID/ENDPOINT/DIGEST`.
    private func source(_ endpoint: String, _ projectID: String, _ body: [UInt8]) -> String {
        let digest = body.withUnsafeBufferPointer { PayloadDigest.sha256($0) }
        return "api/\(projectID)/\(endpoint)/\(digest.prefix(16))"
    }

    /// An event ID as Sentry answers it: 32 lower-case hex digits, no dashes.
    static func sentryEventID(_ id: String) -> String {
        String(id.lowercased().filter { $0 != "-" }.prefix(32))
    }

    /// `{"id": "EVENT_ID"}`, as Sentry answers.
    static func eventAnswer(_ id: String?) -> Response {
        Response.json(CanonicalJSON.string(of: .object(["id": id.map { .string(sentryEventID($0)) } ?? .null])))
    }

    /// `{"ids": [REPORT_ID, …]}`.
    static func idsAnswer(_ ids: [String]) -> Response {
        Response.json(CanonicalJSON.string(of: .object(["ids": .array(ids.map { .string($0) })])))
    }
}

extension HTTPField.Name {
    /// Sentry's authentication header.
    static let sentryAuth = named("X-Sentry-Auth")
    /// Sentry's rate-limit header, which its SDKs read on a 429.
    static let sentryRateLimits = named("X-Sentry-Rate-Limits")

    /// The field `name`, a token written in this file: it is never invalid, and a typo stops the server at its first
    /// use rather than sending another header in its place.
    private static func named(_ name: String) -> Self {
        guard let field = Self(name) else { preconditionFailure("\(name) is no HTTP field name") }
        return field
    }
}

extension Response {
    /// A 200 answer with a JSON text.
    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
