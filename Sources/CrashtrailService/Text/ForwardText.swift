import CrashtrailCore
import CrashtrailStore
import Foundation

/// What `crashtrail forward` prints.
package enum ForwardText {
    /// The summary of a run.
    package static func summary(_ summary: TriageService.ForwardSummary) -> String {
        var lines = [
            "Forwarded to \(summary.upstream): \(summary.delivered) delivered, \(summary.setAside) set aside, \(summary.waiting) still waiting "
                + "(\(summary.queued) newly queued)."
        ]
        if summary.setAside > 0 {
            lines.append("Set aside: they can never succeed as they are; crashtrail forward --status gives the reasons.")
        }
        if summary.waiting > 0 {
            lines.append(
                "Still waiting: the upstream failed or asked to wait; run crashtrail forward again, or serve --forward sends them.")
        }
        return lines.joined(separator: "\n")
    }

    /// The summary as JSON.
    package static func json(_ summary: TriageService.ForwardSummary) -> JSONValue {
        [
            "upstream": .string(summary.upstream), "queued": .int(Int64(summary.queued)), "delivered": .int(Int64(summary.delivered)),
            "setAside": .int(Int64(summary.setAside)), "waiting": .int(Int64(summary.waiting)),
        ]
    }

    /// Each upstream's outbox, as a table.
    package static func table(_ statuses: [ForwardStatus], now: Int64) -> String {
        guard !statuses.isEmpty else { return "Nothing was forwarded from this store: no upstream has reports in its outbox." }
        var lines: [String] = []
        for status in statuses {
            lines.append(status.upstream)
            lines.append("  delivered   \(status.delivered)")
            lines.append("  waiting     \(status.waiting)")
            lines.append("  retrying    \(status.retrying)")
            let setAside = status.setAside.values.reduce(0, +)
            lines.append("  set aside   \(setAside)")
            for (reason, count) in status.setAside.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
                lines.append("    \(count)  \(reason)")
            }
            if let oldest = status.oldestWaiting {
                lines.append("  oldest waiting since \(Timestamp.rfc3339(milliseconds: oldest)) (\(max(0, now - oldest) / 1000) s)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Each upstream's outbox, as JSON.
    package static func json(_ statuses: [ForwardStatus]) -> JSONValue {
        .array(
            statuses.map { status in
                var object: [String: JSONValue] = [
                    "upstream": .string(status.upstream), "delivered": .int(Int64(status.delivered)),
                    "waiting": .int(Int64(status.waiting)),
                    "retrying": .int(Int64(status.retrying)),
                    "setAside": .object(status.setAside.mapValues { .int(Int64($0)) }),
                ]
                object["oldestWaiting"] = status.oldestWaiting.map { .string(Timestamp.rfc3339(milliseconds: $0)) } ?? .null
                return .object(object)
            })
    }
}
