import CrashtrailCore
import CrashtrailStore
import Foundation

/// `crashtrail store copy FROM TO`: every report, trail and manifest of one store copied into another, then both
/// read again and compared.
public enum StoreCopyOperation {
    /// What a verified copy did, with the stores' names for the summary.
    public struct Result: Sendable {
        package let summary: StoreCopy.Summary
        public let source: String
        public let destination: String

        /// The summary for people.
        public func text(seconds: Double) -> String {
            "Copied \(summary.reportsCopied) of \(counted(summary.source.reports, "report")), \(counted(summary.trailsCopied, "joined trail")) and \(counted(summary.manifestsCopied, "manifest")) "
                + (summary.projectsCopied > 0 ? "(and \(counted(summary.projectsCopied, "project"))) " : "")
                + (summary.groupingRulesCopied > 0 ? "(and \(counted(summary.groupingRulesCopied, "grouping rule"))) " : "")
                + "from \(source) to \(destination) in \(String(format: "%.1f", seconds)) s.\nVerified: both hold \(summary.destination)."
        }
    }

    /// Copies the store at `from` (which must exist) into the one at `to` (made if missing) and verifies the copy.
    /// - Parameters:
    ///   - from: the store to copy.
    ///   - to: the store to copy into.
    ///   - progress: told how many reports were copied so far.
    /// - Returns: the verified copy's summary.
    /// - Throws: ``StoreCopyError`` when FROM and TO are the same or the copy does not match its source; ``StoreLocationError``;
    ///   `StoreError`.
    public static func copy(from: StoreLocation, to: StoreLocation, progress: @escaping (Int) -> Void) throws -> Result {
        guard from != to else {
            throw StoreCopyError(.sameStore, "FROM and TO are the same store (\(from)); name another store to copy into")
        }
        let source = try from.openExisting()
        let destination = try to.openOrCreate()
        let summary = try StoreCopy.copy(from: source, to: destination, progress: progress)
        guard summary.verified else {
            throw StoreCopyError(
                .notVerified,
                "the copy does not match its source: \(source.location) holds \(summary.source), \(destination.location) holds \(summary.destination); "
                    + "TO held other reports before the copy, or a job wrote to either store during it. Copy into an empty store.")
        }
        return Result(summary: summary, source: source.location, destination: destination.location)
    }
}
