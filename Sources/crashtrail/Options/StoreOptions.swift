import ArgumentParser
import CrashtrailService
import Foundation

/// `--store`: the crash store, shared by every command that takes one.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The crash store: an SQLite file, or postgres://USER@HOST:PORT/DB for a shared PostgreSQL store (password from PGPASSWORD or ~/.pgpass). Defaults to $CRASHTRAIL_STORE, else crashtrail.sqlite in the working directory.",
            valueName: "store"))
    var store: String?

    /// The store this command uses; opening it says on a terminal when it is being upgraded.
    var location: StoreLocation { StoreLocation(store, willUpgrade: upgradeNotice) }
}

/// Says on standard error, when it is a terminal, that an existing store is being upgraded: a migration may count
/// every stored report once, which takes seconds for a large store, and it runs once.
@Sendable func upgradeNotice(_ migrations: [String]) {
    guard isatty(STDERR_FILENO) == 1 else { return }
    printError(
        "Upgrading the crash store to this version's schema (\(migrations.joined(separator: "; "))); this runs once, and takes seconds for a store of a million reports."
    )
}
