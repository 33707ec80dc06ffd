import CrashtrailCore
import Foundation

extension IngestResult {
    /// The summary for people; `quarantine` is the folder refused inputs were copied to.
    package func text(quarantine: String) -> String {
        var lines: [String] = []
        lines.append(
            "Ingested \(summary.inputs) input\(summary.inputs == 1 ? "" : "s") in \(String(format: "%.2f", summary.seconds)) s (\(String(format: "%.0f", summary.rate)) inputs/s)."
        )
        if summary.stored == 0, summary.duplicates > 0 {
            lines.append(
                summary.duplicates == 1
                    ? "Nothing new: the one report was already stored."
                    : "Nothing new: all \(summary.duplicates) reports were already stored.")
        }
        lines.append("  stored       \(summary.stored) new")
        lines.append("  duplicates   \(summary.duplicates)")
        var rejected = "  rejected     \(summary.rejected)"
        if summary.rejected > 0 {
            let reasons = summary.rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            rejected += " (\(reasons.joined(separator: ", "))), copied to \(quarantine)/"
        }
        lines.append(rejected)
        if summary.skippedDiagnostics > 0 {
            lines.append(
                "  skipped      \(summary.skippedDiagnostics) MetricKit diagnostic\(summary.skippedDiagnostics == 1 ? "" : "s") that are not crashes (hangs, CPU and disk exceptions, launches)"
            )
        }
        lines.append(
            "  trails       embedded \(summary.trailsEmbedded), joined \(summary.trailsJoined), missing \(summary.trailsMissing + summary.trailsInferred)"
                + (summary.trailsInferred > 0 ? " (\(summary.trailsInferred) with a trail inferred from breadcrumbs)" : "")
                + ", undecodable \(summary.trailsUndecodable)"
        )
        if summary.trailsWaiting > 0 || summary.trailsNotKept > 0 {
            var waiting =
                "  waiting      \(summary.trailsWaiting) trail file\(summary.trailsWaiting == 1 ? "" : "s") whose crash is not stored yet, kept to join it when it comes"
            if summary.trailsNotKept > 0 { waiting += "; \(summary.trailsNotKept) not kept: as many trails as allowed already wait" }
            lines.append(waiting)
        }
        if summary.sessionTrails > 0 {
            lines.append(
                "  sessions     \(counted(summary.sessionTrails, "trail")) of sessions that did not crash, counted for paths --rate")
        }
        if decodedLater > 0 {
            lines.append("  stored reports whose trail is decoded now that its manifest is known: \(decodedLater)")
        }
        return lines.joined(separator: "\n")
    }
}
