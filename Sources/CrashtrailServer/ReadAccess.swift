import CrashtrailStore
import Foundation
import HTTPTypes
import Hummingbird

/// Who may read the service's crashes: its pages, its JSON and `/metrics` (SPEC section 19).
///
/// Reads are closed by default, on loopback too. They open to a token with the `read` scope (`crashtrail project token
/// add`) of every project, or of the service's only project; to the operator's token given with `--read-token`; or to
/// anyone with `--public-read`. The token comes as `Authorization: Bearer TOKEN`, or as the password of HTTP Basic
/// authentication (any user name), which a browser asks for once.
struct ReadAccess: Sendable {
    /// Anyone may read (`--public-read`).
    var isPublic: Bool
    /// The operator's token (`--read-token`), which opens every read.
    var operatorToken: String?
    let projects: ProjectRegistry

    /// Lets the request through, or refuses it.
    /// - Throws: `RequestError`: 401 (with a Basic challenge, so a browser asks) without a token or with an unknown one,
    ///   403 for a token that may not read this.
    func authorize(_ request: Request) throws(RequestError) {
        guard !isPublic else { return }
        let token = Self.token(request)
        if let operatorToken, let token, AccessToken.constantTimeEqual(token, operatorToken) { return }
        do {
            _ = try projects.authorizeToken(token, scope: .read, project: nil)
        } catch  where error.status == .unauthorized {
            var challenged = error
            challenged.headers[.wwwAuthenticate] = "Basic realm=\"crashtrail\", charset=\"UTF-8\""
            throw challenged
        }
    }

    /// The token of `Authorization: Bearer TOKEN`, or the password of `Authorization: Basic …`.
    static func token(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        if let token = ProjectKey.fromBearer(header) { return token }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(trimmed.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        let password = String(text[text.index(after: colon)...])
        return password.isEmpty ? nil : password
    }
}
