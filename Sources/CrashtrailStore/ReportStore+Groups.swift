import CrashtrailCore

extension ReportStore {
    /// The group whose ID is `prefix` or the only one starting with it (SPEC section 13; letters compared without case).
    /// - Throws: `StoreError`: `not-found`, or `ambiguous` with the candidate IDs.
    public func group(matchingPrefix prefix: String) throws(StoreError) -> CrashGroup {
        let wanted = prefix.lowercased()
        guard !wanted.isEmpty else { throw StoreError(.notFound, "give a group ID or a prefix of one; `crashtrail list` lists them") }
        // The signatures alone (from the kept counts), then the counts of the one group that matches.
        let signatures = try read { db in
            try db.strings("SELECT signature FROM groupCount GROUP BY signature HAVING SUM(reports) > 0", [])
        }
        let candidates = signatures.map { (id: CrashGroup.id(ofSignature: $0), signature: $0) }.filter { $0.id.hasPrefix(wanted) }
            .sorted { $0.id < $1.id }
        guard let only = candidates.first else {
            throw StoreError(.notFound, "no crash group has an ID starting with \"\(prefix)\"; `crashtrail list` lists them")
        }
        guard candidates.count == 1 else {
            throw StoreError(
                .ambiguous, "the group ID prefix \"\(prefix)\" matches \(candidates.count) groups; give more of the ID",
                candidates: candidates.prefix(20).map(\.id))
        }
        guard let group = try groups(ReportFilter(signature: only.signature)).first else {
            throw StoreError(.notFound, "the crash group \(only.id) has no reports now; another job moved them")
        }
        return group
    }
}
