import CrashtrailReports
import CrashtrailStore
import Foundation

/// How to run an ingest.
public struct IngestOptions: Sendable {
    /// Files and folders (read recursively); `-` reads NDJSON from standard input.
    public var inputs: [String]
    /// A folder of separate trail files (`.ctr`, `.ct1`, `.json`) to join to crashes by app, pid and launch time.
    public var trailsDirectory: String?
    /// Where refused inputs are copied, each with a `.reason.txt` beside it.
    public var quarantineDirectory: String
    /// Parsing workers.
    public var jobs: Int
    /// Inputs per write transaction.
    public var batchSize: Int
    /// How far a crash's launch time may be from a trail's `session.started`, in milliseconds.
    public var joinTolerance: Int64
    /// How many trail files that join no stored crash are kept to wait for their crashes, and for how long (SPEC
    /// section 18): a later run, or `serve`, joins each when its crash comes.
    package var waitingTrails = ReportStore.WaitingTrailLimits()
    /// The project the reports and trails go to (SPEC section 19): their duplicates and joins are decided within it.
    public var project = ProjectID.first
    /// Files never read as inputs: the store's own (`ReportStore.localFiles`).
    public var excludedFiles: [String]
    /// The largest input (file or standard-input line) read, in bytes; larger ones are refused as `too-large`
    /// and quarantined by reference (a reason file naming them), not copied.
    public var maximumPayloadSize: Int
    /// The most steps an embedded trail may have; more is refused as undecodable (a recorder keeps 500).
    public var maximumTrailSteps: Int

    public init(
        inputs: [String], trailsDirectory: String? = nil, quarantineDirectory: String = IntakeDefaults.quarantineDirectory,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, batchSize: Int = IntakeDefaults.batchSize,
        joinTolerance: Int64 = IntakeDefaults.joinTolerance, excludedFiles: [String] = [], maximumPayloadSize: Int = 64 << 20,
        maximumTrailSteps: Int = IntakeDefaults.maximumTrailSteps
    ) {
        self.inputs = inputs
        self.trailsDirectory = trailsDirectory
        self.quarantineDirectory = quarantineDirectory
        self.jobs = max(1, jobs)
        self.batchSize = max(1, batchSize)
        self.joinTolerance = joinTolerance
        self.excludedFiles = excludedFiles
        self.maximumPayloadSize = max(1, maximumPayloadSize)
        self.maximumTrailSteps = max(1, maximumTrailSteps)
    }
}
