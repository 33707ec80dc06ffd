import CrashtrailCore
import CrashtrailEncoding
import CrashtrailFormats
import CrashtrailReports
import CrashtrailStore
import CrashtrailSymbols
import Foundation

/// The intake path: turns one input's bytes into store rows or rejections, the same for `ingest` and `serve`.
///
/// ```
/// bytes ─► known? ─► validate ─► detect ─► decode ─► identify ─► derive (DerivationPipeline) ─► record
/// ```
///
/// Each stage takes its inputs in its signature: ``ValidatedObject`` (one JSON pass), ``FormatDetector``,
/// ``PayloadParser`` with a ``ParseContext``, ``PayloadIdentity``, then ``DerivationPipeline``'s stages.
///
/// Thread-safe, so ingest workers and the service's requests run it in parallel. What it reads besides the bytes is
/// in its properties: the store only through ``storedID`` (a re-run's lookup of known digests), and debug files only
/// through its ``symbolicator`` (which runs `llvm-symbolizer` processes); without them it reads nothing else.
package struct PayloadProcessor: Sendable {
    /// What became of one payload.
    package enum Outcome: Sendable {
        /// A row to store.
        case record(ReportRecord)
        /// Refused: the bytes go to quarantine with the reason.
        case rejected(RejectionError, source: String, bytes: [UInt8])
        /// Diagnostics that are not crashes (a MetricKit payload's hangs, CPU and disk exceptions): counted, not stored.
        case skipped(count: Int, source: String)
    }

    /// What the ingest job makes of one payload: an outcome, or bytes already stored (not parsed again).
    enum IngestStep: Sendable {
        case outcome(Outcome)
        case alreadyStored(String)
        /// Over the size limit: only a reason is written, naming the input.
        case tooLarge(RejectionError, source: String)
    }

    /// Decodes embedded trails; its manifests replay and infer trails.
    package let decoder: any TrailDecoding
    /// Looks up a payload's SHA-256 among the stored reports, so a re-run skips parsing what it already has.
    package let storedID: (@Sendable (String) -> String?)?
    /// The most steps an embedded trail may have; more is refused as undecodable.
    package let maximumTrailSteps: Int
    /// Everything after the parse.
    let derivation: DerivationPipeline
    /// Whether payloads' breadcrumbs are read: some manifest names screens (SPEC section 15).
    ///
    /// Decided once, not for every payload.
    let readsBreadcrumbs: Bool
    /// The JSON decoder payloads are read with.
    let engine: ParseContext.Engine
    /// Looks frames up in the store's debug files, when there is a store.
    let symbolicator: Symbolicator?
    /// The store's grouping rules and merges.
    package let grouping: GroupingSource
    /// - Parameters:
    ///   - decoder: Decodes embedded trails.
    ///   - storedID: The ID of the stored report with this payload digest, if any: a re-run skips what it has.
    ///   - maximumTrailSteps: The most steps an embedded trail may have.
    ///   - engine: The JSON decoder payloads are read with.
    ///   - symbolicator: Names frames with the store's debug files; none names nothing.
    ///   - grouping: The store's grouping rules and merges, read once or kept current; none groups by the default
    ///     signature.
    package init(
        decoder: any TrailDecoding, storedID: (@Sendable (String) -> String?)? = nil,
        maximumTrailSteps: Int = IntakeDefaults.maximumTrailSteps, engine: ParseContext.Engine = .skimming,
        symbolicator: Symbolicator? = nil, grouping: GroupingSource = .fixed(.none)
    ) {
        self.decoder = decoder
        self.storedID = storedID
        self.maximumTrailSteps = maximumTrailSteps
        self.engine = engine
        self.symbolicator = symbolicator
        self.grouping = grouping
        readsBreadcrumbs = decoder.namesScreens
        derivation = DerivationPipeline(
            decoder: decoder, maximumTrailSteps: maximumTrailSteps, symbolicator: symbolicator, grouping: grouping)
    }

    /// This processor, with stored digests looked up by `storedID` instead.
    func lookingUp(_ storedID: (@Sendable (String) -> String?)?) -> PayloadProcessor {
        PayloadProcessor(
            decoder: decoder, storedID: storedID, maximumTrailSteps: maximumTrailSteps, engine: engine, symbolicator: symbolicator,
            grouping: grouping)
    }

    /// Processes an input file's or line's bytes.
    /// - Parameters:
    ///   - bytes: The whole input.
    ///   - source: Its name for the store and for reasons (a path, or `PATH:LINE`).
    ///   - project: The project its reports are stored in: the one `serve`'s key names, or `ingest --project`.
    ///   - envelope: The framing of `bytes` when they are a Sentry envelope whose framing the caller read already
    ///     (`serve` does, for the key and the limits): the parse does not read it again.
    /// - Returns: The outcomes and how many payloads were examined (lines count one each).
    package func process(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, project: ProjectID = .first, envelope: SentryEnvelopeSummary? = nil
    ) -> (outcomes: [Outcome], inputs: Int) {
        let (steps, inputs) = steps(for: bytes, source: source, project: project, envelope: envelope)
        return (steps.compactMap(\.outcome), inputs)
    }

    /// Processes one NDJSON line: a single-line payload of any JSON format, for `project`.
    package func processLine(_ line: UnsafeBufferPointer<UInt8>, source: String, project: ProjectID = .first) -> [Outcome] {
        lineSteps(line, source: source, project: project).compactMap(\.outcome)
    }

    /// The ingest job's view of `process`: payloads whose digest is already stored are skipped.
    func steps(
        for bytes: UnsafeBufferPointer<UInt8>, source: String, project: ProjectID, envelope: SentryEnvelopeSummary? = nil
    ) -> (steps: [IngestStep], inputs: Int) {
        // Known: bytes already stored are skipped before any parsing (a re-run over the same inputs). Whether the input
        // is one payload is only known after that, so an NDJSON file is hashed whole here for nothing (its lines are
        // looked up one by one): 3% of the bench corpus's bytes hashed twice, against validating every stored payload
        // again on a re-run.
        let (stored, wholeDigest) = known(bytes)
        if let stored { return ([.alreadyStored(stored)], 1) }
        // Validate: most inputs are one JSON object, and one pass gives detection its keys and the parse its structure.
        if let object = ValidatedObject(bytes) {
            return (classified(object, bytes, digest: wholeDigest, source: source, project: project), 1)
        }
        // Detect: anything else, byte by byte.
        let detection: FormatDetector.Detection
        do {
            detection = try FormatDetector.detect(bytes)
        } catch {
            return ([.outcome(.rejected(error, source: source, bytes: Array(bytes)))], 1)
        }
        switch detection {
        case .single(let format):
            return (
                payloadSteps(
                    bytes, format: format, structure: nil, envelope: envelope, digest: wholeDigest, source: source, project: project), 1
            )
        case .lines:
            var steps: [IngestStep] = []
            var inputs = 0
            LineReader.forEachLine(in: bytes) { line, number in
                guard line.contains(where: { !JSONBytes.isWhitespace($0) }) else { return }
                inputs += 1
                steps += lineSteps(line, source: "\(source):\(number)", project: project)
            }
            return (steps, inputs)
        }
    }

    /// The steps of one NDJSON line, for `project`.
    func lineSteps(_ line: UnsafeBufferPointer<UInt8>, source: String, project: ProjectID) -> [IngestStep] {
        let (stored, digest) = known(line)
        if let stored { return [.alreadyStored(stored)] }
        if let object = ValidatedObject(line) { return classified(object, line, digest: digest, source: source, project: project) }
        do throws(RejectionError) {
            guard let keys = TopLevelKeys.scan(line) else {
                throw RejectionError(.unrecognizedFormat, "the line is not a JSON object")
            }
            return payloadSteps(
                line, format: try FormatDetector.classify(keys.keys), structure: nil, digest: digest, source: source, project: project)
        } catch {
            return [.outcome(.rejected(error, source: source, bytes: Array(line)))]
        }
    }

    /// The known stage: the ID of the stored report with exactly these bytes, and their digest, when ``storedID`` is set
    /// (a re-run); neither otherwise.
    private func known(_ bytes: UnsafeBufferPointer<UInt8>) -> (stored: String?, digest: String?) {
        guard let storedID else { return (nil, nil) }
        let digest = PayloadDigest.sha256(bytes)
        return (storedID(digest), digest)
    }

    /// Detects a validated single object's format by its keys and parses it without validating it again.
    private func classified(
        _ object: ValidatedObject, _ bytes: UnsafeBufferPointer<UInt8>, digest: String?, source: String, project: ProjectID
    ) -> [IngestStep] {
        do throws(RejectionError) {
            let format = try FormatDetector.classify(object.keys)
            return payloadSteps(bytes, format: format, structure: object.structure, digest: digest, source: source, project: project)
        } catch {
            return [.outcome(.rejected(error, source: source, bytes: Array(bytes)))]
        }
    }

    /// Decodes one payload of `format`, identifies each report it holds and derives its row.
    /// - Parameters:
    ///   - bytes: the payload.
    ///   - format: its format, as detected.
    ///   - structure: the validated structure of exactly `bytes`, when detection made one.
    ///   - envelope: the framing of exactly `bytes`, when they are an envelope whose framing is known.
    ///   - digest: the SHA-256 of all of `bytes`, when the caller already has it.
    ///   - source: where the payload came from.
    ///   - project: the project its reports are stored in.
    /// - Returns: a step for each report, or the refusal; and one for the diagnostics that are not crashes.
    private func payloadSteps(
        _ bytes: UnsafeBufferPointer<UInt8>, format: ReportFormat, structure: JSONStructure?, envelope: SentryEnvelopeSummary? = nil,
        digest: String?, source: String, project: ProjectID
    ) -> [IngestStep] {
        let context = ParseContext(readsBreadcrumbs: readsBreadcrumbs, engine: engine, structure: structure, envelope: envelope)
        let parsed: (payloads: [ParsedPayload], otherDiagnostics: Int)
        do {
            parsed = try PayloadParser.parse(bytes, as: format, context: context)
        } catch {
            return [.outcome(.rejected(error, source: source, bytes: Array(bytes)))]
        }
        var steps: [IngestStep] = parsed.otherDiagnostics > 0 ? [.outcome(.skipped(count: parsed.otherDiagnostics, source: source))] : []
        let payload = CompressedPayload(data: PayloadCompression.compressed(bytes), size: bytes.count)
        var wholeDigest = digest
        for report in parsed.payloads {
            let identity = PayloadIdentity.of(report, in: bytes, wholeDigest: &wholeDigest)
            steps.append(
                .outcome(.record(derivation.record(report, identity: identity, payload: payload, source: source, project: project))))
        }
        return steps
    }
}

extension PayloadProcessor.IngestStep {
    /// The outcome, when the step is one.
    var outcome: PayloadProcessor.Outcome? {
        if case .outcome(let outcome) = self { outcome } else { nil }
    }
}
