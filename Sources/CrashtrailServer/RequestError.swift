import CrashtrailCore
import Foundation
import HTTPTypes
import Hummingbird

/// A request the service refuses, answered with its status and a JSON body `{"detail": "…"}` that names the problem
/// (SPEC section 14).
package struct RequestError: CrashtrailError, HTTPResponseError, Hashable {
    /// What kind of problem it was: the answer's status, by its number (`400`, `413`, `429`).
    package struct Code: ErrorCode {
        package let name: String
        package init(name: String) { self.name = name }
    }

    package var status: HTTPResponse.Status
    /// What was wrong and how to put it right: the answer's `detail`.
    package var detail: String
    /// Headers the answer carries beside the body (`Retry-After` on a 429).
    package var headers: HTTPFields

    /// - Parameters:
    ///   - status: the answer's status.
    ///   - detail: what was wrong and how to put it right.
    ///   - headers: headers the answer carries beside the body.
    package init(_ status: HTTPResponse.Status, _ detail: String, headers: HTTPFields = [:]) {
        self.status = status
        self.detail = detail
        self.headers = headers
    }

    /// The status, as its number.
    package var code: Code { Code(name: String(status.code)) }
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
