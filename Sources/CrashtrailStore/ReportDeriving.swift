/// Derives a stored report again from its stored payload, as the running crashtrail derives one at ingest: the store
/// asks it when it reprocesses its reports and when a manifest arrives for trails that waited for it, without
/// knowing the crash formats itself.
public protocol ReportDeriving: Sendable {
    /// The report `stored`'s payload gives now, or why it gives none.
    func derive(_ stored: ReportRecord) -> ReportDerivation
}

/// What a stored payload gives now.
public enum ReportDerivation: Sendable {
    /// The report, derived again (same ID and digest as the stored one).
    case record(ReportRecord)
    /// Why the payload gives no report now.
    case failure(String)
}
