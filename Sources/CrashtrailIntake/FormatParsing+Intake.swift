@_spi(Fuzzing) import CrashtrailFormats

@_spi(Fuzzing) extension FormatParsing {
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
