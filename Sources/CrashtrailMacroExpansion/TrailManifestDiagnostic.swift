import SwiftDiagnostics

/// A build-time error of `@TrailManifest` or `@Route`: what is wrong, naming the case, and how to fix it.
struct TrailManifestDiagnostic: DiagnosticMessage, Error {
    /// What kind of problem it is; tests match on it.
    let code: String
    let message: String
    var severity: DiagnosticSeverity { .error }
    var diagnosticID: MessageID { MessageID(domain: "CrashtrailMacros", id: code) }

    /// A problem of one case, its message starting with the case's name (`case 'order': …`).
    static func onCase(_ name: String, _ code: String, _ problem: String) -> Self {
        Self(code: code, message: "case '\(name)': \(problem)")
    }
}
