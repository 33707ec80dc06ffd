import CrashtrailCore
import CrashtrailEncoding
import Dispatch
import Foundation

/// The ingest job (SPEC section 8): walks the inputs, parses them on `jobs` workers, stores each batch in one
/// transaction, quarantines what it refuses, then joins separate trail files to the crashes they belong to.
///
/// Memory stays flat: only one batch of inputs is in memory at a time, however many there are.
public struct IngestPipeline: Sendable {
    public let store: ReportStore
    public let processor: PayloadProcessor
    public let options: IngestOptions

    public init(store: ReportStore, decoder: any TrailDecoding, options: IngestOptions) {
        self.store = store
        self.processor = PayloadProcessor(
            decoder: decoder, storedID: { [store] digest in (try? store.reportID(payloadDigest: digest)) ?? nil },
            maximumTrailSteps: options.maximumTrailSteps)
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
        let started = DispatchTime.now()
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9 }
        let quarantine = Quarantine(directory: URL(fileURLWithPath: options.quarantineDirectory))
        quarantine.removeLeftovers()
        let writer = BatchWriter(store: store, state: RunState(quarantine: quarantine, tracksMissing: options.trailsDirectory != nil))
        var excluded: Set<String> = [URL(fileURLWithPath: options.quarantineDirectory).standardizedFileURL.path]
        if let trails = options.trailsDirectory { excluded.insert(URL(fileURLWithPath: trails).standardizedFileURL.path) }
        for file in options.excludedFiles { excluded.insert(URL(fileURLWithPath: file).standardizedFileURL.path) }
        let paths = options.inputs.filter { $0 != "-" }
        let readsStandardInput = options.inputs.contains("-")
        // Counting walks every folder once more, so it is done only when someone watches the progress.
        let total = readsStandardInput || observer == nil ? nil : InputWalker.count(paths: paths, excluding: excluded)

        let processor = runProcessor()
        var batch: [WorkItem] = []
        batch.reserveCapacity(options.batchSize)
        var done = 0
        // Parsing a batch overlaps with storing the one before; progress counts a batch once it is parsed.
        func flush() throws(IngestError) {
            guard !batch.isEmpty else { return }
            let results = processBatch(batch, with: processor)
            try writer.submit(results)
            done += batch.count
            batch.removeAll(keepingCapacity: true)
            observer?.ingest(madeProgress: IngestProgress(done: done, total: total, elapsed: elapsed()))
        }
        for path in InputWalker(paths: paths, excluding: excluded) {
            batch.append(.file(path))
            if batch.count >= options.batchSize { try flush() }
        }
        if readsStandardInput {
            var reader = LineReader(handle: standardInput, maximumLength: options.maximumPayloadSize)
            while let (number, line) = reader.nextLine() {
                guard let line else {
                    let reason = RejectionError(
                        .tooLarge, "standard input line \(number) is over the \(options.maximumPayloadSize)-byte limit; it was skipped")
                    try writer.withState { (state) throws(IngestError) in
                        state.summary.inputs += 1
                        try state.rejectReasonOnly(reason, source: "-:\(number)")
                    }
                    continue
                }
                guard line.contains(where: { !TopLevelKeys.isWhitespace($0) }) else { continue }
                batch.append(.line(source: "-:\(number)", bytes: line))
                if batch.count >= options.batchSize { try flush() }
            }
        }
        try flush()
        if let trails = options.trailsDirectory {
            try joinTrails(from: trails, writer: writer)
        }
        return try writer.withState { (state) throws(IngestError) in
            state.summary.trailsMissing -= state.joinedNew
            state.summary.seconds = elapsed()
            return state.summary
        }
    }

    /// The processor for this run: ``processor``, whose lookup of stored digests first asks a set of the digests
    /// stored when the run starts. A lookup costs a read transaction (8% of a first run's CPU samples when every
    /// payload is new); a digest whose first eight bytes no stored report has is certainly not stored, so most new
    /// payloads skip it. Reports stored after the set was read (by this run or another job) are still caught when
    /// inserted, as duplicates. The set costs 11 to 21 bytes per stored report (8-byte entries in a hash table at
    /// most three quarters full); when it cannot be read, every payload is looked up as before.
    private func runProcessor() -> PayloadProcessor {
        guard let lookUp = processor.storedID, let prefixes = try? store.storedDigestPrefixes() else { return processor }
        return PayloadProcessor(
            decoder: processor.decoder,
            storedID: { digest in
                guard let prefix = ReportStore.digestPrefix(digest), prefixes.contains(prefix) else { return nil }
                return lookUp(digest)
            },
            maximumTrailSteps: processor.maximumTrailSteps)
    }

    /// Parses a batch on `jobs` workers, keeping the input order.
    private func processBatch(
        _ batch: [WorkItem], with processor: PayloadProcessor
    ) -> [(steps: [PayloadProcessor.IngestStep], inputs: Int)] {
        let results = IndexedSlots<(steps: [PayloadProcessor.IngestStep], inputs: Int)>(count: batch.count, placeholder: ([], 0))
        let jobs = min(options.jobs, batch.count)
        let maximumPayloadSize = options.maximumPayloadSize
        // Workers claim the next item as they free up, so one large report does not leave the other idle.
        let claims = WorkClaims(count: batch.count)
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let index = claims.next() {
                results.set(index, Self.process(batch[index], with: processor, maximumPayloadSize: maximumPayloadSize))
            }
        }
        return results.values
    }

    private static func process(
        _ item: WorkItem, with processor: PayloadProcessor, maximumPayloadSize: Int
    ) -> (steps: [PayloadProcessor.IngestStep], inputs: Int) {
        switch item {
        case .file(let path):
            switch InputFile.read(path, maximumSize: maximumPayloadSize) {
            case .bytes(let bytes):
                return bytes.withUnsafeBufferPointer { processor.steps(for: $0, source: path) }
            case .tooLarge(let size):
                let reason = RejectionError(
                    .tooLarge,
                    "the input is \(size) bytes, over the \(maximumPayloadSize)-byte limit; it was not copied here (it is still at \(path)); raise the limit with --max-payload-size if it is a real crash")
                return ([.tooLarge(reason, source: path)], 1)
            case .unreadable(let why):
                let reason = RejectionError(.unreadable, "could not read \(path): \(why)")
                return ([.outcome(.rejected(reason, source: path, bytes: []))], 1)
            }
        case .line(let source, let bytes):
            return (bytes.withUnsafeBufferPointer { processor.lineSteps($0, source: source) }, 1)
        }
    }

    /// Reads every trail file in `directory` (decoding on the workers while the writer joins the batch before)
    /// and attaches each to the stored crash it belongs to, one transaction a batch.
    private func joinTrails(from directory: String, writer: BatchWriter) throws(IngestError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            // The reports already parsed are stored before the job says why it stops.
            try writer.withState { _ in }
            throw IngestError(.trails, "the trails folder \(directory) does not exist or is not a folder")
        }
        let tolerance = options.joinTolerance
        let maximumSize = options.maximumPayloadSize
        var batch: [String] = []
        func flush() throws(IngestError) {
            guard !batch.isEmpty else { return }
            let decoded = decodeTrails(batch)
            batch.removeAll(keepingCapacity: true)
            try writer.submit { (state, store) throws(IngestError) in
                try Self.join(decoded, from: directory, tolerance: tolerance, maximumSize: maximumSize, state: &state, store: store)
            }
        }
        for path in InputWalker(paths: [directory]) {
            batch.append(path)
            if batch.count >= options.batchSize { try flush() }
        }
        try flush()
    }

    /// Joins a batch of decoded trail files to their stored crashes in one transaction, and quarantines the
    /// refused ones.
    private static func join(
        _ decoded: [(String, Result<(DecodedTrail, Int64), RejectionError>)], from directory: String, tolerance: Int64,
        maximumSize: Int, state: inout RunState, store: ReportStore
    ) throws(IngestError) {
        var joined: [String] = []
        var rejections: [(RejectionError, String)] = []
        do {
            (joined, rejections) = try store.write { db in
                // Kept inside: a backend may run the transaction again after a lost connection.
                var joined: [String] = []
                var rejections: [(RejectionError, String)] = []
                for (path, result) in decoded {
                    switch result {
                    case .failure(let reason): rejections.append((reason, path))
                    case .success(let (decoded, started)):
                        let trail = decoded.trail
                        let candidates = try ReportStore.reportsAwaitingTrail(
                            bundleID: trail.app.bundleID, pid: trail.session.pid, started: started, tolerance: tolerance, in: db)
                        if let id = candidates.first, try ReportStore.attachTrail(decoded, toReport: id, in: db) {
                            joined.append(id)
                        }
                    }
                }
                return (joined, rejections)
            }
        } catch {
            throw IngestError(.store, "could not join trails from \(directory): \(error)")
        }
        state.summary.inputs += decoded.count
        state.summary.trailsJoined += joined.count
        state.joinedNew += joined.filter { state.newMissing.contains($0) }.count
        for (reason, path) in rejections {
            guard reason.code != .tooLarge else {
                try state.rejectReasonOnly(reason, source: path)
                continue
            }
            if case .bytes(let bytes) = InputFile.read(path, maximumSize: maximumSize) {
                try state.reject(reason, source: path, bytes: bytes)
            } else {
                try state.reject(reason, source: path, bytes: [])
            }
        }
    }

    /// Decodes trail files on the workers, with each one's session start in milliseconds.
    private func decodeTrails(_ paths: [String]) -> [(String, Result<(DecodedTrail, Int64), RejectionError>)] {
        let slots = IndexedSlots<(String, Result<(DecodedTrail, Int64), RejectionError>)>(
            count: paths.count, placeholder: ("", .failure(RejectionError(.undecodableTrail, "not decoded"))))
        let jobs = min(options.jobs, paths.count)
        let decoder = processor.decoder
        let claims = WorkClaims(count: paths.count)
        let maximumSize = options.maximumPayloadSize
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let index = claims.next() {
                let path = paths[index]
                let result: Result<(DecodedTrail, Int64), RejectionError>
                let bytes: [UInt8]
                switch InputFile.read(path, maximumSize: maximumSize) {
                case .bytes(let read): bytes = read
                case .tooLarge(let size):
                    let reason = RejectionError(
                        .tooLarge,
                        "the trail file is \(size) bytes, over the \(maximumSize)-byte limit; it was not copied here (it is still at \(path))")
                    slots.set(index, (path, .failure(reason)))
                    continue
                case .unreadable(let why):
                    slots.set(index, (path, .failure(RejectionError(.unreadable, "could not read \(path): \(why)"))))
                    continue
                }
                do {
                    let decoded = try decoder.decodeTrail(bytes: bytes)
                    let trail = decoded.trail
                    if let started = Timestamp.milliseconds(parsing: trail.session.started) {
                        result = .success((decoded, started))
                    } else {
                        result = .failure(
                            RejectionError(
                                .undecodableTrail,
                                "the trail's session.started \"\(trail.session.started)\" is not an RFC 3339 time, so it cannot be joined"))
                    }
                } catch {
                    result = .failure(RejectionError(.undecodableTrail, "the trail file could not be decoded: \(error)"))
                }
                slots.set(index, (path, result))
            }
        }
        return slots.values
    }
}

/// Counts and quarantine of one run, updated on the writing thread only.
struct RunState {
    var summary = IngestSummary()
    let quarantine: Quarantine
    let tracksMissing: Bool
    /// IDs of reports stored in this run without a trail, when a trails folder may join them.
    var newMissing: Set<String> = []
    var joinedNew = 0

    init(quarantine: Quarantine, tracksMissing: Bool) {
        self.quarantine = quarantine
        self.tracksMissing = tracksMissing
    }

    mutating func store(_ results: [(steps: [PayloadProcessor.IngestStep], inputs: Int)], in store: ReportStore) throws(IngestError) {
        var rejections: [(RejectionError, String, [UInt8])] = []
        var tooLarge: [(RejectionError, String)] = []
        do {
            let tracksMissing = self.tracksMissing
            let before = (summary: self.summary, newMissing: self.newMissing)
            var summary = before.summary
            var newMissing = before.newMissing
            try store.write { db in
                // Each run of the transaction starts again from the state before it: a backend may run it again after
                // a lost connection or a deadlock with another job.
                summary = before.summary
                newMissing = before.newMissing
                rejections = []
                tooLarge = []
                for result in results {
                    summary.inputs += result.inputs
                    for step in result.steps {
                        switch step {
                        case .outcome(.record(let record)):
                            switch try ReportStore.insert(record, in: db) {
                            case .duplicate: summary.duplicates += 1
                            case .stored(let id):
                                summary.stored += 1
                                switch record.trailSource {
                                case TrailInfo.Source.embedded.rawValue: summary.trailsEmbedded += 1
                                case TrailInfo.Source.undecodable.rawValue: summary.trailsUndecodable += 1
                                default:
                                    summary.trailsMissing += 1
                                    if tracksMissing { newMissing.insert(id) }
                                }
                            }
                        case .outcome(.rejected(let reason, let source, let bytes)):
                            rejections.append((reason, source, bytes))
                        case .outcome(.skipped(let count, _)):
                            summary.skippedDiagnostics += count
                        case .tooLarge(let reason, let source):
                            tooLarge.append((reason, source))
                        case .alreadyStored:
                            summary.duplicates += 1
                        }
                    }
                }
            }
            self.summary = summary
            self.newMissing = newMissing
        } catch {
            throw IngestError(.store, "could not store a batch of reports: \(error)")
        }
        for (reason, source, bytes) in rejections {
            try reject(reason, source: source, bytes: bytes)
        }
        for (reason, source) in tooLarge {
            try rejectReasonOnly(reason, source: source)
        }
    }

    /// Counts a refusal and writes only its reason file, for inputs too large to copy.
    mutating func rejectReasonOnly(_ reason: RejectionError, source: String) throws(IngestError) {
        summary.reject(reason.code)
        do {
            try quarantine.keepReasonOnly(source: source, reason: reason)
        } catch {
            throw IngestError(
                .quarantine,
                "could not write the reason for \(source) to the quarantine folder \(quarantine.directory.path): \(error.localizedDescription)")
        }
    }

    mutating func reject(_ reason: RejectionError, source: String, bytes: [UInt8]) throws(IngestError) {
        summary.reject(reason.code)
        do {
            try bytes.withUnsafeBufferPointer { try quarantine.keep($0, source: source, reason: reason) }
        } catch {
            throw IngestError(
                .quarantine,
                "could not copy the refused input \(source) to the quarantine folder \(quarantine.directory.path): \(error.localizedDescription)")
        }
    }
}

/// Hands out the indexes `0..<count` to workers, each once, in order.
final class WorkClaims: @unchecked Sendable {
    private let count: Int
    private var nextIndex = 0
    private let lock = NSLock()

    init(count: Int) {
        self.count = count
    }

    /// The next unclaimed index, or nil when all are taken.
    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextIndex < count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }
}

/// Per-index results that parallel workers fill; each index is written by exactly one worker, and the values
/// are read once every worker is done.
final class IndexedSlots<Value: Sendable>: @unchecked Sendable {
    private var slots: [Value]
    private let lock = NSLock()

    /// `count` slots, each holding `placeholder` until it is set.
    init(count: Int, placeholder: Value) {
        slots = Array(repeating: placeholder, count: count)
    }

    func set(_ index: Int, _ value: Value) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    var values: [Value] { lock.withLock { slots } }
}
