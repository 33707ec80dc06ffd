import CrashtrailCore
import CrashtrailReports

/// Tells which crash format a payload is, by its content (SPEC section 7), never by its file name.
package enum FormatDetector {
    /// What an input holds.
    package enum Detection: Hashable, Sendable {
        /// One payload of this format (an envelope may still hold several events).
        case single(ReportFormat)
        /// Several JSON objects, one a line (a Crashlytics BigQuery export, or NDJSON on standard input): each
        /// line is detected on its own.
        case lines
    }

    private static let metricKitKeys: Set<String> = [
        "crashDiagnostics", "hangDiagnostics", "cpuExceptionDiagnostics", "diskWriteExceptionDiagnostics",
        "callStackTree", "appLaunchDiagnostics",
    ]

    /// Detects the format of `bytes`.
    /// - Throws: `RejectionError`: `empty`, or `unrecognized-format`.
    package static func detect(_ bytes: UnsafeBufferPointer<UInt8>) throws(RejectionError) -> Detection {
        guard let firstByte = bytes.first(where: { !JSONBytes.isWhitespace($0) }) else {
            throw RejectionError(.empty, "the input is empty")
        }
        if firstByte != UInt8(ascii: "{"), isAppleText(bytes) { return .single(.appleText) }
        guard firstByte == UInt8(ascii: "{"), let first = TopLevelKeys.scan(bytes) else {
            if bytes.count >= 5, Array(bytes[0..<5]) == Array("PATCH".utf8) {
                throw RejectionError(
                    .unrecognizedFormat, "this is an IPS ROM patch (it starts with \"PATCH\"), not an Apple crash report")
            }
            throw RejectionError(
                .unrecognizedFormat,
                "the input is neither a JSON object nor an Apple text crash report (no \"Incident Identifier:\" line, nor \"Process:\" and \"Exception Type:\" lines), so it is none of the crash formats crashtrail reads (crashtrail, Sentry, .ips, KSCrash, Crashlytics, MetricKit, Apple text)"
            )
        }
        // An .ips header says so itself: its body (most of the file) need not be scanned here.
        if let end = first.end, first.keys.contains("bug_type"),
            let bodyStart = bytes[end...].firstIndex(where: { !JSONBytes.isWhitespace($0) })
        {
            // `bug_type` 109 puts a legacy text report under the header line.
            return .single(bytes[bodyStart] == UInt8(ascii: "{") ? .ips : .appleText)
        }
        if let end = first.end, let next = TopLevelKeys.scan(bytes, from: end), next.keys.isEmpty == false || next.end != nil {
            if next.keys.contains("type"), !next.keys.contains("event_id"), !first.keys.contains("issue_id") {
                return .single(.sentryEnvelope)
            }
            return .lines
        }
        do {
            return .single(try classify(first.keys))
        } catch  where first.end == nil && error.code == .unrecognizedFormat {
            throw RejectionError(
                .invalidJSON,
                "the JSON ends before its top-level object closes, so the file is truncated or not JSON (\(bytes.count) bytes)")
        }
    }

    /// Whether `bytes` is an Apple text crash report: within its first lines, an `Incident Identifier:` line, or both a
    /// `Process:` line and an `Exception Type:` line.
    static func isAppleText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let head = String(decoding: bytes.prefix(16 << 10), as: UTF8.self)
        var process = false
        var exception = false
        for line in head.split(whereSeparator: \.isNewline).prefix(200) {
            if line.hasPrefix("Incident Identifier:") { return true }
            if line.hasPrefix("Process:") { process = true }
            if line.hasPrefix("Exception Type:") { exception = true }
        }
        return process && exception
    }

    /// The format a single JSON object with these top-level keys is.
    /// - Throws: `RejectionError` for objects of no known format.
    package static func classify(_ keys: Set<String>) throws(RejectionError) -> ReportFormat {
        if keys.contains("crashtrail") { return .crashtrail }
        if !keys.isDisjoint(with: metricKitKeys) || (keys.contains("timeStampBegin") && keys.contains("timeStampEnd")) {
            return .metrickit
        }
        if keys.contains("bug_type") { return .ips }
        if keys.contains("report"), keys.contains("crash") { return .kscrash }
        if keys.contains("issue_id") || (keys.contains("event_id") && keys.contains("custom_keys")) { return .crashlytics }
        if keys.contains("event_id") || keys.contains("exception") { return .sentryEvent }
        let shown = keys.sorted().prefix(8).joined(separator: ", ")
        throw RejectionError(
            .unrecognizedFormat,
            "a JSON object of no crash format crashtrail reads (top-level keys: \(shown.isEmpty ? "none" : shown)); expected \"crashtrail\", \"event_id\"/\"exception\" (Sentry), \"bug_type\" (.ips), \"report\"+\"crash\" (KSCrash) or \"event_id\"+\"issue_id\" (Crashlytics)"
        )
    }
}
