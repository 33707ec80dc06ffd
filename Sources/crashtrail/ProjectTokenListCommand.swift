import ArgumentParser
import CrashtrailCore
import CrashtrailService
import CrashtrailStore

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
        for token in tokens { print(TokenText.line(token, projects: projects)) }
    }
}
