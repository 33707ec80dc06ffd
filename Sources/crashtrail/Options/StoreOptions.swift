import ArgumentParser
import CrashtrailService

/// `--store`: the crash store, shared by every command that takes one.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The crash store: an SQLite file, or postgres://USER@HOST:PORT/DB for a shared PostgreSQL store (password from PGPASSWORD or ~/.pgpass). Defaults to $CRASHTRAIL_STORE, else crashtrail.sqlite in the working directory.",
            valueName: "store"))
    var store: String?

    /// The store this command uses.
    var location: StoreLocation { StoreLocation(store) }
}
