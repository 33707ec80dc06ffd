import CrashtrailReports

/// The formats reached from another package: the fuzzers (`Tools/Fuzz`).
///
/// The fuzzers check the formats' invariants on what they make of any bytes. The intake target adds `process`, the
/// whole intake path.
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
}
