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

/// `crashtrail project token add PROJECT --scope SCOPE[,SCOPE…]`.
struct ProjectTokenAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Make a token and print it, once, alone on the last line.",
        discussion: """
            Scopes: read (the project's pages, JSON and metrics) and debug-files (debug-file uploads). \
            --all-projects makes an operator's token, for every project. The token is the last line, so a script \
            can keep it (SENTRY_AUTH_TOKEN for sentry-cli). Examples:

              crashtrail project token add ios-app --scope debug-files
              crashtrail project token add --all-projects --scope read
            """)

    @Argument(help: "The project it opens, by ID or name; leave it out with --all-projects.")
    var project: String?

    @Option(name: .long, help: ArgumentHelp("What it may do: read, debug-files, or both joined by a comma.", valueName: "scopes"))
    var scope: String

    @Flag(name: .long, help: "An operator's token, for every project.")
    var allProjects = false

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard AccessToken.scopes(scope) != nil else {
            throw ValidationError("--scope \(scope) names no scope crashtrail knows; give read, debug-files, or read,debug-files")
        }
        if allProjects, project != nil {
            throw ValidationError("give a project or --all-projects, not both")
        }
        if !allProjects, project == nil {
            throw ValidationError("name the project the token opens (crashtrail project list shows them), or give --all-projects")
        }
    }

    func run() throws {
        let scopes = AccessToken.scopes(scope) ?? []
        let (token, value) = try reportingFailure {
            let service = try TriageService(location: storeOptions.location, creating: false)
            return try service.store.addToken(project: allProjects ? nil : project, scopes: scopes, created: service.time.now())
        }
        let what = token.project.map { "project \($0)" } ?? "every project"
        print("Made token \(token.id) for \(what), scopes \(scopes.sorted().map(\.rawValue).joined(separator: ",")).")
        print("It is shown this once; the store keeps only its hash:")
        print(value)
    }
}

/// `crashtrail project token list`.
struct ProjectTokenListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the tokens: ID, project, scopes, first characters, when made; never their values.")

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let (tokens, projects) = try reportingFailure {
            let store = try TriageService(location: storeOptions.location, creating: false).store
            return (try store.tokens(), try store.projects())
        }
        guard !tokens.isEmpty else {
            print("The store has no tokens: make one with crashtrail project token add PROJECT --scope read.")
            return
        }
        for token in tokens {
            let project =
                token.project.map { id in projects.first { $0.id == id }.map { "\(id) (\($0.name))" } ?? String(id) } ?? "all projects"
            let state = token.revoked ? "  revoked" : ""
            print(
                "\(token.id)  \(project)  \(token.scopes.sorted().map(\.rawValue).joined(separator: ","))  \(token.hint)…  \(Timestamp.rfc3339(milliseconds: token.created))\(state)"
            )
        }
    }
}

/// `crashtrail project token revoke ID`.
struct ProjectTokenRevokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke a token by its ID: running services refuse it within seconds.")

    @Argument(help: "The token's ID, as project token list shows it.")
    var id: Int

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let token = try reportingFailure {
            try TriageService(location: storeOptions.location, creating: false).store.revokeToken(id: id)
        }
        print("Revoked token \(token.id) (\(token.hint)…); requests that send it are refused with 401.")
    }
}

/// `crashtrail project limit PROJECT --events-per-minute N`.
struct ProjectLimitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limit",
        abstract: "Set how many events a minute crashtrail serve takes for a project.",
        discussion: """
            Past the limit, reports are answered 429 with Retry-After and X-Sentry-Rate-Limits, which Sentry's SDKs \
            honour. Running services read it within seconds. 0 clears the project's own limit, for the service's \
            default (serve --events-per-minute). Examples:

              crashtrail project limit ios-app --events-per-minute 600
              crashtrail project limit ios-app --events-per-minute 0
            """)

    @Argument(help: "The project's ID or name.")
    var project: String

    @Option(name: .long, help: "The most events a minute; 0 for the service's default.")
    var eventsPerMinute: Int

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard eventsPerMinute >= 0 else {
            throw ValidationError("--events-per-minute takes 0 (the service's default) or more, for example 600")
        }
    }

    func run() throws {
        let limited = try reportingFailure {
            try TriageService(location: storeOptions.location, creating: false).store.setProjectLimit(
                project, eventsPerMinute: eventsPerMinute == 0 ? nil : eventsPerMinute)
        }
        if let limit = limited.eventsPerMinute {
            print("Project \(limited.id) (\(limited.name)) takes at most \(limit) events a minute.")
        } else {
            print("Project \(limited.id) (\(limited.name)) takes the service's default rate (serve --events-per-minute).")
        }
    }
}
