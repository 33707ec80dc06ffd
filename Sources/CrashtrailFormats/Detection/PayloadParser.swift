import CrashtrailReports

/// Runs the parser of a detected format over one payload.
package enum PayloadParser {
    /// Parses `bytes`, a single payload of `format`.
    /// - Parameters:
    ///   - bytes: the payload.
    ///   - format: its format, as detected.
    ///   - context: the decoder, the structure validation found for exactly these bytes, and whether breadcrumbs are
    ///     read.
    /// - Returns: One parsed payload, or several for an envelope with several events or a MetricKit payload with several
    ///   crash diagnostics, and how many diagnostics it held that are not crashes.
    /// - Throws: `RejectionError` saying what was wrong.
    package static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, as format: ReportFormat, context: ParseContext
    ) throws(RejectionError) -> (payloads: [ParsedPayload], otherDiagnostics: Int) {
        switch format {
        case .crashtrail: ([try CrashtrailReportParser.parse(bytes, context: context)], 0)
        case .sentryEvent: ([try SentryEventParser.parse(bytes, context: context)], 0)
        case .sentryEnvelope: (try SentryEnvelopeParser.parse(bytes, context: context), 0)
        case .ips: ([try IPSParser.parse(bytes, context: context)], 0)
        case .kscrash: ([try KSCrashParser.parse(bytes, context: context)], 0)
        case .crashlytics: ([try CrashlyticsParser.parse(bytes, context: context)], 0)
        case .metrickit:
            try MetricKitParser.parse(bytes, context: context)
        case .appleText: ([try AppleTextParser.parse(bytes, context: context)], 0)
        }
    }
}
