import CrashtrailCore
import CrashtrailReplay
import CrashtrailService
import CrashtrailStore
import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The read side, live: the triage site's pages rendered from the store on request, and JSON with the same fields as
/// the commands' `--format json` (SPEC section 14).
///
/// - `GET /`, `/index.html`, `/groups/NAME.html`, `/reports/NAME.html`: the pages `crashtrail report --html` writes.
/// - `GET /api/0/groups` (`list`), `/api/0/reports?group=G&limit=N` (`list --reports`), `/api/0/show/ID` (`show`),
///   `/api/0/replay/ID` (`replay --format json`), `/api/0/paths?group=G&screens=N` (`paths`).
///
/// Each asks for a token that may read (``ReadAccess``) as `Authorization: Bearer TOKEN`, or as the password of HTTP
/// basic authentication, which a browser asks for once. A project's token reads its project's crashes only; the
/// operator names one project's with `?project=ID` (or its name).
struct ReadRoutes: Sendable {
    let service: TriageService
    let access: ReadAccess
    let logger: Logger

    func add(to router: Router<BasicRequestContext>) {
        let routes = self
        router.get("/") { request, _ in try await routes.page("", request) }
        router.get("/index.html") { request, _ in try await routes.page("index.html", request) }
        router.get("/health.html") { request, _ in try await routes.page("health.html", request) }
        router.get("/groups/:name") { request, context in
            try await routes.page("groups/\(context.parameters.get("name") ?? "")", request)
        }
        router.get("/reports/:name") { request, context in
            try await routes.page("reports/\(context.parameters.get("name") ?? "")", request)
        }
        let api = router.group("api/0")
        api.get("groups") { request, _ in
            try await routes.json(request) { service in
                .array(try service.groups(limit: Self.limit(request)).map(\.jsonValue))
            }
        }
        api.get("reports") { request, _ in
            try await routes.json(request) { service in
                let group = request.uri.queryParameters.get("group")
                return .array(try service.reports(group: group, limit: Self.limit(request)).map(ListingText.jsonValue(ofReport:)))
            }
        }
        api.get("show/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await routes.json(request) { service in
                switch try service.item(id, reportLimit: Self.limit(request) ?? 50) {
                case .group(let detail): return ShowText.jsonValue(of: detail)
                case .report(let record): return record.report.jsonValue
                }
            }
        }
        api.get("replay/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await routes.answer(request) { service in
                let outcome = try ReplayOperation.replay(storedReport: id, service: service)
                return Self.body(ReplayRenderer.render(outcome.replay, as: .json), type: "application/json")
            }
        }
        api.get("paths") { request, _ in
            try await routes.json(request) { service in
                let screens = request.uri.queryParameters.get("screens").flatMap(Int.init) ?? 5
                guard screens >= 1 else {
                    throw RequestError.badRequest("screens takes a number of screens, 1 or more, for example screens=5")
                }
                let group = request.uri.queryParameters.get("group")
                return try service.paths(group: group, screens: screens, manifests: try service.store.storedManifests()).table.jsonValue
            }
        }
    }

    private func page(_ path: String, _ request: Request) async throws -> Response {
        try await answer(request) { service in
            guard let html = try service.sitePage(path) else {
                throw RequestError(.notFound, "no page \(path) in the triage site; the index lists its groups")
            }
            return Self.body(html, type: "text/html; charset=utf-8")
        }
    }

    private func json(_ request: Request, _ value: @escaping @Sendable (TriageService) throws -> JSONValue) async throws -> Response {
        try await answer(request) { service in Self.body(CanonicalJSON.string(of: try value(service)), type: "application/json") }
    }

    /// Checks the read token, then runs `make` off the server's threads (the store's reads block) with the service
    /// reading the project the request may read, turning the store's errors into answers.
    private func answer(_ request: Request, _ make: @escaping @Sendable (TriageService) throws -> Response) async throws -> Response {
        let service = service.reading(project: try access.authorize(request))
        let result: Result<Response, any Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Result { try make(service) }) }
        }
        do {
            return try result.get()
        } catch let refusal as RequestError {
            throw refusal
        } catch let error as StoreError where error.code == .notFound {
            throw RequestError(.notFound, error.message)
        } catch let error as StoreError where error.code == .ambiguous {
            throw RequestError(.conflict, "\(error.message): \(error.candidates.joined(separator: ", "))")
        } catch let error as ReplayError {
            throw RequestError(.unprocessableContent, error.description)
        } catch {
            // The cause stays in the log: an error of the store may name its paths.
            logger.error("a read failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            throw RequestError(
                .internalServerError, "the page could not be made (\(Self.kind(of: error))); the service's log names the cause")
        }
    }

    /// An error's type, which names its kind without its text.
    static func kind(of error: any Error) -> String {
        String(describing: type(of: error))
    }

    private static func limit(_ request: Request) throws(RequestError) -> Int? {
        guard let text = request.uri.queryParameters.get("limit") else { return nil }
        guard let limit = Int(text), limit >= 1 else {
            throw RequestError.badRequest("limit takes a count of 1 or more, for example limit=20")
        }
        return limit
    }

    private static func body(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
