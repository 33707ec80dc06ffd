import CrashtrailReports
import CrashtrailStore
import CrashtrailSymbols

extension DebugFileImport {
    /// An import into `store` whose waiting reports are derived again by the intake path, with trails decoded by
    /// `decoder`, frames named by the symbolicator that knows the new debug files, and crashes grouped by `grouping`.
    package init(store: ReportStore, decoder: any TrailDecoding, grouping: GroupingSource = .fixed(.none)) {
        self.init(store: store, deriving: { PayloadDeriver(decoder: decoder, symbolicator: $0, grouping: grouping) })
    }
}

extension ChunkedUpload {
    /// An upload into `store` whose assembled files derive waiting reports again by the intake path.
    package init(
        store: ReportStore, decoder: any TrailDecoding, grouping: GroupingSource = .fixed(.none), limits: Limits = Limits()
    ) {
        self.init(store: store, importer: DebugFileImport(store: store, decoder: decoder, grouping: grouping), limits: limits)
    }
}
