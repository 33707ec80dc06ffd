import CrashtrailStore

/// A store opened on first use and then reused, for operations that may not need one at all (`replay FILE`): the
/// store is opened at most once, and never when nothing asks for it.
final class StoreOpener {
    let location: StoreLocation
    private var opened: ReportStore?

    init(_ location: StoreLocation) {
        self.location = location
    }

    /// The store, opened the first time (it must exist).
    /// - Throws: ``StoreLocationError`` or `StoreError`.
    func store() throws -> ReportStore {
        if let opened { return opened }
        let store = try location.openExisting()
        opened = store
        return store
    }
}
