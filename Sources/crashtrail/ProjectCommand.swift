import ArgumentParser
import CrashtrailService
import CrashtrailStore

/// `crashtrail project`: the projects `crashtrail serve` accepts, and their DSNs.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Add, list, limit and revoke the projects crashtrail serve accepts, and their tokens.",
        discussion: """
            Each project has an ID and a key, which make its DSN: http://KEY@HOST:PORT/ID. A running service \
            reads the store's projects again within seconds, so changes need no restart. Examples:

              crashtrail project add ios-app --url https://crashes.example.com
              crashtrail project list
              crashtrail project revoke ios-app
              crashtrail project token add ios-app --scope debug-files
              crashtrail project limit ios-app --events-per-minute 600
            """,
        subcommands: [
            ProjectAddCommand.self, ProjectListCommand.self, ProjectRevokeCommand.self, ProjectTokenCommand.self,
            ProjectLimitCommand.self,
        ]
    )
}

/// `--url`: the address the service is reached by, for the DSNs printed.
struct ServiceURLOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The address apps reach crashtrail serve by, for the DSNs printed.", valueName: "url"))
    var url = "http://127.0.0.1:8000"
}

/// `crashtrail project add NAME`.
struct ProjectAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a project with a new key and print its DSN.")

    @Argument(help: "The project's name, unique in the store.")
    var name: String

    @OptionGroup var url: ServiceURLOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let project = try reportingFailure {
            try TriageService(location: storeOptions.location, creating: true).store.addProject(name: name)
        }
        print("Added project \(project.id) (\(project.name)). Its DSN: \(project.dsn(base: url.url))")
    }
}

/// `crashtrail project list`.
struct ProjectListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the projects and their DSNs.")

    @OptionGroup var url: ServiceURLOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let projects = try reportingFailure { try TriageService(location: storeOptions.location, creating: false).store.projects() }
        guard !projects.isEmpty else {
            print("The store has no projects yet: crashtrail serve makes one named default, or add one with crashtrail project add NAME.")
            return
        }
        for project in projects {
            print("\(project.id)  \(project.name)  \(project.revoked ? "revoked" : project.dsn(base: url.url))")
        }
    }
}

/// `crashtrail project revoke ID|NAME`.
struct ProjectRevokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke a project: its key is refused from now on.")

    @Argument(help: "The project's ID or name.")
    var project: String

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let revoked = try reportingFailure {
            try TriageService(location: storeOptions.location, creating: false).store.revokeProject(project)
        }
        print("Revoked project \(revoked.id) (\(revoked.name)); reports sent with its key are refused with 401.")
    }
}
