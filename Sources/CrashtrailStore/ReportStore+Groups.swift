import CrashtrailCore

extension ReportStore {
    /// The group whose ID is `prefix` or the only one starting with it (SPEC section 13; letters compared without case).
    /// - Throws: `StoreError`: `not-found`, or `ambiguous` with the candidate IDs.
    public func group(matchingPrefix prefix: String) throws(StoreError) -> CrashGroup {
        let wanted = prefix.lowercased()
        guard !wanted.isEmpty else { throw StoreError(.notFound, "give a group ID or a prefix of one; `crashtrail list` lists them") }
        let candidates = try groups().filter { $0.id.hasPrefix(wanted) }
        guard let only = candidates.first else {
            throw StoreError(.notFound, "no crash group has an ID starting with \"\(prefix)\"; `crashtrail list` lists them")
        }
        guard candidates.count == 1 else {
            throw StoreError(
                .ambiguous, "the group ID prefix \"\(prefix)\" matches \(candidates.count) groups; give more of the ID",
                candidates: candidates.prefix(20).map(\.id))
        }
        return only
    }
}
