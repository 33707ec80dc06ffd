import CrashtrailStore

extension ServerMetrics {
    /// The forwarding outbox as Prometheus text: delivered, waiting, retrying and set aside (by reason) per upstream,
    /// and the age of the oldest report waiting.
    static func forwardingText(_ statuses: [ForwardStatus], now: Int64) -> String {
        guard !statuses.isEmpty else { return "" }
        var lines = [
            "# HELP crashtrail_forward_reports Reports in the forwarding outbox, by upstream and state.",
            "# TYPE crashtrail_forward_reports gauge",
        ]
        func label(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: " ")
        }
        for status in statuses {
            let upstream = label(status.upstream)
            lines.append(#"crashtrail_forward_reports{upstream="\#(upstream)",state="delivered"} \#(status.delivered)"#)
            lines.append(#"crashtrail_forward_reports{upstream="\#(upstream)",state="waiting"} \#(status.waiting)"#)
            lines.append(#"crashtrail_forward_reports{upstream="\#(upstream)",state="retrying"} \#(status.retrying)"#)
            // The reason's class only (`HTTP 400`, or `other`): its text comes from the upstream, and a label value must
            // not (SPEC section 19).
            var byClass: [String: Int] = [:]
            for (reason, count) in status.setAside { byClass[Self.reasonClass(reason), default: 0] += count }
            for (reason, count) in byClass.sorted(by: { $0.key < $1.key }) {
                lines.append(#"crashtrail_forward_reports{upstream="\#(upstream)",state="set-aside",reason="\#(reason)"} \#(count)"#)
            }
        }
        lines.append("# HELP crashtrail_forward_oldest_waiting_seconds How long the oldest report waiting for an upstream has waited.")
        lines.append("# TYPE crashtrail_forward_oldest_waiting_seconds gauge")
        for status in statuses {
            let age = status.oldestWaiting.map { Double(max(0, now - $0)) / 1000 } ?? 0
            lines.append(#"crashtrail_forward_oldest_waiting_seconds{upstream="\#(label(status.upstream))"} \#(age)"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A set-aside reason's class: `HTTP NNN` when it starts so, else `other`.
    static func reasonClass(_ reason: String) -> String {
        let head = reason.prefix(8)
        guard head.hasPrefix("HTTP "), head.count == 8, head.dropFirst(5).allSatisfy(\.isNumber) else { return "other" }
        return String(head)
    }

}
