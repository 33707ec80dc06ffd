/// The crash payload formats `crashtrail ingest` reads (SPEC section 7), by their SPEC names.
public enum ReportFormat: String, Hashable, Sendable, CaseIterable, Codable {
    /// crashtrail's own report: a JSON object with `"crashtrail": 1`.
    case crashtrail
    /// A single Sentry event JSON object.
    case sentryEvent = "sentry-event"
    /// A Sentry envelope: a header line, then items framed by `length`.
    case sentryEnvelope = "sentry-envelope"
    /// An Apple crash report: a one-line JSON header, then a JSON body.
    case ips
    /// A KSCrash (or SentryCrash) JSON report.
    case kscrash
    /// One event of a Crashlytics BigQuery export (NDJSON, one event a line).
    case crashlytics
    /// A MetricKit `MXDiagnosticPayload`: each crash diagnostic is one report.
    case metrickit
    /// An Apple text crash report: the legacy format, PLCrashReporter's text, or an `.ips` with a text body
    /// (`bug_type` 109).
    case appleText = "apple-text"
}
