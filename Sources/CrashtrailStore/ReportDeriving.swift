/// Derives a stored report again from its stored payload, as the running crashtrail derives one at ingest: the store
/// asks it when it reprocesses its reports and when a manifest arrives for trails that waited for it, without
/// knowing the crash formats itself.
package protocol ReportDeriving: Sendable {
    /// The report `stored`'s payload gives now, or why it gives none.
    func derive(_ stored: ReportRecord) -> ReportDerivation
    /// The signature of `derived` once the recorded trail `trailJSON` (encoded with the manifest `dictionaryID` names,
    /// if any) has joined it: a crash without frames is named by that trail's screen at the crash (SPEC section 15).
    func signature(of derived: ReportRecord, joinedTrail trailJSON: String, dictionaryID: String?) -> String
    /// The screen path stored beside the joined trail `trailJSON`: its last screens as the app's manifest replays them;
    /// nil when no manifest is known for it.
    func screenPath(ofJoinedTrail trailJSON: String, dictionaryID: String?) -> StoredScreenPath?
}

extension ReportDeriving {
    /// The derived signature, unchanged.
    package func signature(of derived: ReportRecord, joinedTrail trailJSON: String, dictionaryID: String?) -> String {
        derived.signature
    }

    /// None: the joined trail's stored path is left as it is.
    package func screenPath(ofJoinedTrail trailJSON: String, dictionaryID: String?) -> StoredScreenPath? { nil }
}

/// What a stored payload gives now.
package enum ReportDerivation: Sendable {
    /// The report, derived again (same ID and digest as the stored one).
    case record(ReportRecord)
    /// Why the payload gives no report now.
    case failure(String)
}
