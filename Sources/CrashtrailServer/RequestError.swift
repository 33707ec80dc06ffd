import CrashtrailCore
import Foundation
import HTTPTypes
import Hummingbird

/// A request the service refuses, answered with its status and a JSON body `{"detail": "…"}` that names the problem
/// (SPEC section 14).
package struct RequestError: CrashtrailError, HTTPResponseError, Hashable {
    /// What kind of problem it was: a refusal's own kind (`rate-limit`, `backlog-full`), where two answers share a
    /// status; else the status, by its number (`400`, `413`).
    package struct Code: ErrorCode {
        package let name: String
        package init(name: String) { self.name = name }

        /// A project passed its rate limit for a category (429).
        package static let rateLimit = Code(name: "rate-limit")
        /// A project holds its share of the backlog (429).
        package static let backlogShare = Code(name: "backlog-share")
        /// The service's backlog is full, whichever project sent (429).
        package static let backlogFull = Code(name: "backlog-full")
        /// As many trails as a project may keep wait for their crashes (429).
        package static let trailsWaitingFull = Code(name: "trails-waiting-full")
        /// The disk has less free space than the floor (503).
        package static let diskFloor = Code(name: "disk-floor")

        /// The kind of an answer that has no other: its status's number.
        package static func status(_ status: HTTPResponse.Status) -> Code { Code(name: String(status.code)) }
    }

    package var status: HTTPResponse.Status
    /// What was wrong and how to put it right: the answer's `detail`.
    package var detail: String
    /// Headers the answer carries beside the body (`Retry-After` on a 429).
    package var headers: HTTPFields
    /// The kind of problem, for a caller that tells two answers of one status apart.
    package var code: Code

    /// - Parameters:
    ///   - status: the answer's status.
    ///   - detail: what was wrong and how to put it right.
    ///   - headers: headers the answer carries beside the body.
    ///   - code: the kind of problem; the status's number when nil.
    package init(_ status: HTTPResponse.Status, _ detail: String, headers: HTTPFields = [:], code: Code? = nil) {
        self.status = status
        self.detail = detail
        self.headers = headers
        self.code = code ?? .status(status)
    }

    /// The answer's `detail`.
    package var message: String { detail }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        let body = CanonicalJSON.string(of: .object(["detail": .string(detail)]))
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// 401: no key, or a key no project has.
    static func unauthorized(_ detail: String) -> RequestError { RequestError(.unauthorized, detail) }
    /// 400: a body that cannot be read.
    static func badRequest(_ detail: String) -> RequestError { RequestError(.badRequest, detail) }
    /// 413: a body over one of Sentry's limits.
    static func tooLarge(_ detail: String) -> RequestError { RequestError(.contentTooLarge, detail) }
}
