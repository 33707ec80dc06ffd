import CrashtrailStore

/// Runs the parser of a detected format over one payload.
enum PayloadParser {
    /// Parses `bytes`, a single payload of `format`.
    /// - Parameters:
    ///   - bytes: the payload.
    ///   - format: its format, as detected.
    ///   - context: the decoder, the structure validation found for exactly these bytes, and whether breadcrumbs are
    ///     read.
    /// - Returns: One parsed payload, or several for an envelope with several events or a MetricKit payload with several
    ///   crash diagnostics, and how many diagnostics it held that are not crashes.
    /// - Throws: `RejectionError` saying what was wrong.
    static func parse(
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

/// The intake path reached from another package: the fuzzers (`Tools/Fuzz`), which check its invariants on what it
/// makes of any bytes.
@_spi(Fuzzing) public enum FormatParsing {
    /// What the intake path made of a payload, as the fuzzers check it.
    public enum Outcome: Sendable {
        /// A report to store, with its ID and payload digest.
        case record(id: String, sha256: String)
        /// A refusal, with its message.
        case rejected(message: String)
        /// Diagnostics that are not crashes, counted.
        case skipped(count: Int)
    }

    /// The format ingest detects `bytes` as; nil for lines of JSON objects, each detected on its own.
    /// - Throws: `RejectionError` when no format fits.
    public static func detect(_ bytes: UnsafeBufferPointer<UInt8>) throws(RejectionError) -> ReportFormat? {
        if case .single(let format) = try FormatDetector.detect(bytes) { return format }
        return nil
    }

    /// Parses `bytes` as `format` the way ingest does when no manifest names screens, past detection.
    /// - Returns: each parsed payload's own bytes within `bytes`, when the input holds several.
    /// - Throws: `RejectionError` saying what was wrong.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, as format: ReportFormat) throws(RejectionError) -> [Range<Int>?] {
        try PayloadParser.parse(bytes, as: format, context: ParseContext()).payloads.map(\.identityRange)
    }

    /// Runs the whole intake path on an input, as ingest does on a file (or, with `line`, on a standard-input line).
    /// - Returns: the outcomes, and how many payloads were examined.
    public static func process(
        _ bytes: UnsafeBufferPointer<UInt8>, decoder: any TrailDecoding, line: Bool
    ) -> (outcomes: [Outcome], inputs: Int) {
        let processor = PayloadProcessor(decoder: decoder)
        let (outcomes, inputs) = line ? (processor.processLine(bytes, source: "-:1"), 1) : processor.process(bytes, source: "fuzz.json")
        return (
            outcomes.map { outcome in
                switch outcome {
                case .record(let record): .record(id: record.id, sha256: record.sha256)
                case .rejected(let reason, _, _): .rejected(message: reason.message)
                case .skipped(let count, _): .skipped(count: count)
                }
            }, inputs
        )
    }
}
