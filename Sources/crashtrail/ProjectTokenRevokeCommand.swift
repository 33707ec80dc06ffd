import ArgumentParser
import CrashtrailCore
import CrashtrailService
import CrashtrailStore

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
