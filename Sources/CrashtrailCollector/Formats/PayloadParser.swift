import CrashtrailStore

/// Runs the parser of a detected format over one payload.
public enum PayloadParser {
    /// Parses `bytes`, a single payload of `format`.
    /// - Returns: One parsed payload, or several for an envelope with several events.
    /// - Throws: `RejectionError` saying what was wrong.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, as format: ReportFormat) throws(RejectionError) -> [ParsedPayload] {
        switch format {
        case .crashtrail: [try CrashtrailReportParser.parse(bytes)]
        case .sentryEvent: [try SentryEventParser.parse(bytes)]
        case .sentryEnvelope: try SentryEnvelopeParser.parse(bytes)
        case .ips: [try IPSParser.parse(bytes)]
        case .kscrash: [try KSCrashParser.parse(bytes)]
        case .crashlytics: [try CrashlyticsParser.parse(bytes)]
        case .metrickit: try MetricKitParser.parse(bytes).crashes
        case .appleText: [try AppleTextParser.parse(bytes)]
        }
    }
}
