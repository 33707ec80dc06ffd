import ArgumentParser
import CrashtrailCore
import CrashtrailService
import CrashtrailStore

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
        print(TokenText.made(token))
        print("It is shown this once; the store keeps only its hash:")
        print(value)
    }
}
