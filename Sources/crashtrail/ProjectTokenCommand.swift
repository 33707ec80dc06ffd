import ArgumentParser
import CrashtrailCore
import CrashtrailService
import CrashtrailStore

/// `crashtrail project token`: tokens with scopes, for what a project's public DSN key may not do (SPEC section 19).
struct ProjectTokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Make, list and revoke the tokens that read a project's crashes or upload its debug files.",
        discussion: """
            A DSN key only sends reports: every copy of the app carries it. Reading pages, JSON and /metrics takes \
            a token with the read scope; uploading debug files (sentry-cli with SENTRY_AUTH_TOKEN) one with the \
            debug-files scope. The store keeps a hash of each token, so it is printed once, when made. Examples:

              crashtrail project token add ios-app --scope debug-files
              crashtrail project token add ios-app --scope read,debug-files
              crashtrail project token add --all-projects --scope read
              crashtrail project token list
              crashtrail project token revoke 3
            """,
        subcommands: [ProjectTokenAddCommand.self, ProjectTokenListCommand.self, ProjectTokenRevokeCommand.self]
    )
}
