import CrashtrailCore
import CrashtrailIntake
import CrashtrailStore
import CrashtrailSymbols

/// Debug files (SPEC section 16): `crashtrail symbols add` and `symbols list`.
extension TriageService {
    /// Stores the debug files under `paths` and derives again the stored reports that were waiting for them.
    /// - Parameters:
    ///   - paths: dSYM bundles, folders, zip archives and Mach-O files.
    ///   - project: the project whose crashes they symbolicate, by ID or name; the store's only project when nil
    ///     (`ReportStore.writingProject(named:)`).
    ///   - progress: told each slice, refusal and batch of reports.
    /// - Returns: what was stored and derived again.
    /// - Throws: `StoreError`.
    package func addSymbols(
        _ paths: [String], project: String? = nil, progress: @escaping (DebugFileImport.Progress) -> Void = { _ in }
    ) throws -> DebugFileImport.Result {
        let project = try store.writingProject(named: project)
        return try DebugFileImport(store: store, decoder: try codec(), grouping: .fixed(try store.groupingRuleBook())).add(
            paths, project: project, progress: progress)
    }

    /// The stored debug files, by name, then architecture.
    /// - Throws: `StoreError`.
    public func debugFiles() throws -> [DebugFile] {
        try store.debugFiles()
    }

    /// The images stored reports' frames name in the app's own code that no debug file describes, the most awaited first.
    /// - Throws: `StoreError`.
    public func missingDebugFiles() throws -> [MissingDebugFile] {
        try store.missingDebugFiles()
    }
}
