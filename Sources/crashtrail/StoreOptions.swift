import ArgumentParser
import CrashtrailCollector
import Foundation

/// The crash store a command reads or writes: `--store`, else `CRASHTRAIL_STORE`, else `crashtrail.sqlite` in
/// the working directory (SPEC section 8). Shared by `ingest`, `list`, `show` and `replay`.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The SQLite crash store. Defaults to $CRASHTRAIL_STORE, else crashtrail.sqlite in the working directory.",
            valueName: "store"))
    var store: String?

    /// The environment variable that names the default store.
    static let environmentVariable = "CRASHTRAIL_STORE"
    /// The store file used when nothing else names one.
    static let defaultPath = "crashtrail.sqlite"

    /// The store path this command uses.
    func resolvedPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let store, !store.isEmpty { return store }
        if let path = environment[Self.environmentVariable], !path.isEmpty { return path }
        return Self.defaultPath
    }

    /// Opens (creating if needed) the store.
    /// - Throws: `StoreError` naming the path.
    func open() throws -> ReportStore {
        try ReportStore.open(path: resolvedPath())
    }

    /// Opens the store, refusing to create one: for commands that only read it.
    /// - Throws: `MissingStore` naming the path and how to fill a store, or `StoreError`.
    func openExisting() throws -> ReportStore {
        let path = resolvedPath()
        guard FileManager.default.fileExists(atPath: path) else { throw MissingStore(path: path) }
        return try ReportStore.open(path: path)
    }

    /// No store where a reading command looked.
    struct MissingStore: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "there is no crash store at \(path); fill one with crashtrail ingest PATH…, or pass --store (or set $\(StoreOptions.environmentVariable)) to the store it filled"
        }
    }
}
