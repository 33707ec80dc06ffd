import CrashtrailCore
import CrashtrailEncoding
import CrashtrailFormats
import CrashtrailReports
import CrashtrailStore
import CrashtrailSymbols
import Dispatch
import Foundation

/// The ingest job (SPEC section 8): walks the inputs, parses them on `jobs` workers, stores each batch in one
/// transaction, quarantines what it refuses, then joins separate trail files to the crashes they belong to.
///
/// Memory stays flat: only one batch of inputs is in memory at a time, however many there are.
public struct IngestPipeline: Sendable {
    public let store: ReportStore
    package let processor: PayloadProcessor
    public let options: IngestOptions
    /// The clock the run is timed by and its transactions read.
    package let time: TimeSource

    /// A job over `store`, decoding embedded trails with `decoder`; frames are named with the store's debug files, and
    /// crashes grouped by its grouping rules and merges.
    /// - Throws: `StoreError` when the store's grouping rules cannot be read.
    public init(store: ReportStore, decoder: any TrailDecoding, options: IngestOptions) throws(StoreError) {
        self.init(
            store: store, decoder: decoder, options: options, symbolicator: try? Symbolicator(store: store, workers: options.jobs),
            grouping: try store.groupingRuleBook())
    }

    /// A job that names frames with `symbolicator`, groups by `grouping` and reads the time from `time`.
    package init(
        store: ReportStore, decoder: any TrailDecoding, options: IngestOptions, symbolicator: Symbolicator?,
        grouping: GroupingRuleBook = .none, time: TimeSource = .system
    ) {
        self.store = store
        self.time = time
        self.processor = PayloadProcessor(
            decoder: decoder,
            storedID: { [store, project = options.project] digest in (try? store.reportID(payloadDigest: digest, project: project)) ?? nil
            },
            maximumTrailSteps: options.maximumTrailSteps, symbolicator: symbolicator, grouping: .fixed(grouping))
        self.options = options
    }

    /// One unit of work: a file to read, or a line already read from standard input.
    enum WorkItem: Sendable {
        case file(String)
        case line(source: String, bytes: [UInt8])
    }

    /// Runs the job.
    /// - Parameters:
    ///   - observer: Told the progress after each batch.
    ///   - standardInput: Where `-` reads NDJSON from.
    /// - Returns: The summary.
    /// - Throws: `IngestError` when the store or the quarantine folder cannot be written, or the trails folder
    ///   cannot be read. Refused inputs are not errors: they are counted and quarantined.
    public func run(
        observer: (any IngestProgressObserver)? = nil, standardInput: FileHandle = .standardInput
    ) throws(IngestError) -> IngestSummary {
        let started = time.uptimeNanoseconds()
        let startedAt = time.now()
        let quarantine = Quarantine(directory: URL(fileURLWithPath: options.quarantineDirectory))
        quarantine.removeLeftovers()
        var policy = GroupCommitter.Policy.ingest()
        policy.joinTolerance = options.joinTolerance
        let run = IngestRun(
            store: store, state: RunState(quarantine: quarantine, tracksMissing: options.trailsDirectory != nil), policy: policy,
            time: time)
        let excluded = excludedPaths()
        let paths = options.inputs.filter { $0 != "-" }
        let readsStandardInput = options.inputs.contains("-")
        // Counting walks every folder once more, so it is done only when someone watches the progress.
        let total = readsStandardInput || observer == nil ? nil : InputWalker.count(paths: paths, excluding: excluded)
        let processor = runProcessor()
        var batches = Batches(size: options.batchSize) { batch, done throws(IngestError) in
            try run.store(processBatch(batch, with: processor))
            observer?.ingest(madeProgress: IngestProgress(done: done, total: total, elapsed: time.seconds(since: started)))
        }
        for path in InputWalker(paths: paths, excluding: excluded) { try batches.add(.file(path)) }
        if readsStandardInput { try readLines(of: standardInput, into: &batches, run: run) }
        try batches.flush()
        if let trails = options.trailsDirectory { try joinTrails(from: trails, run: run) }
        var summary = try run.finish { state in
            state.summary.trailsMissing -= state.joinedNew
            state.summary.trailsInferred -= state.joinedNewInferred
            return state.summary
        }
        // Those received during this run, less a margin for other workers' clocks.
        summary.trailsJoined += try sweepWaitingTrails(since: startedAt - 60_000)
        store.compact()
        summary.seconds = time.seconds(since: started)
        return summary
    }

    /// The files ingest never reads as inputs: its quarantine, the trails folder, the store's own files and those the
    /// options exclude.
    private func excludedPaths() -> Set<String> {
        var excluded: Set<String> = [URL(fileURLWithPath: options.quarantineDirectory).standardizedFileURL.path]
        if let trails = options.trailsDirectory { excluded.insert(URL(fileURLWithPath: trails).standardizedFileURL.path) }
        for file in options.excludedFiles + store.localFiles { excluded.insert(URL(fileURLWithPath: file).standardizedFileURL.path) }
        return excluded
    }

    /// Adds each NDJSON line of `handle` to `batches`; a line over the size limit is refused with its number.
    private func readLines(of handle: FileHandle, into batches: inout Batches, run: IngestRun) throws(IngestError) {
        var reader = LineReader(handle: handle, maximumLength: options.maximumPayloadSize)
        while let (number, line) = reader.nextLine() {
            guard let line else {
                let reason = RejectionError(
                    .tooLarge, "standard input line \(number) is over the \(options.maximumPayloadSize)-byte limit; it was skipped")
                try run.rejectReasonOnly(reason, source: "-:\(number)")
                continue
            }
            guard line.contains(where: { !JSONBytes.isWhitespace($0) }) else { continue }
            try batches.add(.line(source: "-:\(number)", bytes: line))
        }
    }

    /// Joins the trails kept waiting while another job stored their crash at the same instant (a shared store).
    /// - Returns: how many were joined.
    private func sweepWaitingTrails(since: Int64) throws(IngestError) -> Int {
        do {
            return try store.sweepWaitingTrails(tolerance: options.joinTolerance, since: since).count
        } catch {
            throw IngestError(.store, "could not join the trails waiting for crashes stored meanwhile: \(error)", cause: error)
        }
    }

    /// Work items gathered into batches of `size`, each handed to `store` when full (parsing a batch overlaps with
    /// storing the one before), with how many items were handed on so far.
    private struct Batches {
        let size: Int
        let store: (_ batch: [WorkItem], _ done: Int) throws(IngestError) -> Void
        private var items: [WorkItem] = []
        private var done = 0

        init(size: Int, store: @escaping (_ batch: [WorkItem], _ done: Int) throws(IngestError) -> Void) {
            self.size = size
            self.store = store
            items.reserveCapacity(size)
        }

        mutating func add(_ item: WorkItem) throws(IngestError) {
            items.append(item)
            if items.count >= size { try flush() }
        }

        mutating func flush() throws(IngestError) {
            guard !items.isEmpty else { return }
            done += items.count
            try store(items, done)
            items.removeAll(keepingCapacity: true)
        }
    }

    /// The processor for this run: ``processor``, whose lookup of stored digests first asks a set of the digests
    /// stored when the run starts.
    ///
    /// A lookup costs a read transaction (8% of a first run's CPU samples when every
    /// payload is new); a digest whose first eight bytes no stored report has is certainly not stored, so most new
    /// payloads skip it. Reports stored after the set was read (by this run or another job) are still caught when
    /// inserted, as duplicates. The set costs 11 to 21 bytes per stored report (8-byte entries in a hash table at
    /// most three quarters full); when it cannot be read, every payload is looked up as before.
    private func runProcessor() -> PayloadProcessor {
        guard let lookUp = processor.storedID, let prefixes = try? store.storedDigestPrefixes() else { return processor }
        return processor.lookingUp { digest in
            guard let prefix = ReportStore.digestPrefix(digest), prefixes.contains(prefix) else { return nil }
            return lookUp(digest)
        }
    }

    /// Parses a batch on `jobs` workers, keeping the input order.
    private func processBatch(
        _ batch: [WorkItem], with processor: PayloadProcessor
    ) -> [ParsedInput] {
        let results = IndexedSlots<ParsedInput>(count: batch.count, placeholder: ParsedInput(steps: [], inputs: 0))
        let jobs = min(options.jobs, batch.count)
        let maximumPayloadSize = options.maximumPayloadSize
        let project = options.project
        // Workers claim the next item as they free up, so one large report does not leave the other idle.
        let claims = WorkClaims(count: batch.count)
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let index = claims.next() {
                results.set(index, Self.process(batch[index], with: processor, project: project, maximumPayloadSize: maximumPayloadSize))
            }
        }
        return results.values
    }

    private static func process(
        _ item: WorkItem, with processor: PayloadProcessor, project: ProjectID, maximumPayloadSize: Int
    ) -> ParsedInput {
        switch item {
        case .file(let path):
            switch InputFile.readOrRefuse(path, maximumSize: maximumPayloadSize, kind: .payload) {
            case .success(let bytes):
                let (steps, inputs) = bytes.withUnsafeBufferPointer { processor.steps(for: $0, source: path, project: project) }
                return ParsedInput(steps: steps, inputs: inputs)
            case .failure(let reason) where reason.code == .tooLarge:
                return ParsedInput(steps: [.tooLarge(reason, source: path)], inputs: 1)
            case .failure(let reason):
                return ParsedInput(steps: [.outcome(.rejected(reason, source: path, bytes: []))], inputs: 1)
            }
        case .line(let source, let bytes):
            return ParsedInput(
                steps: bytes.withUnsafeBufferPointer { processor.lineSteps($0, source: source, project: project) }, inputs: 1)
        }
    }
}
