import ArgumentParser
import CrashtrailCore
import CrashtrailIntake
import CrashtrailService
import Foundation

/// The `ingest` command: a batch of crash payloads stored with their trails (`crashtrail ingest PATH…`).
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Store a batch of crash payloads with their navigation trails.",
        discussion: """
            Reads crashtrail reports, Sentry events and envelopes, Apple .ips and text crash reports, KSCrash \
            reports, MetricKit payloads and Crashlytics BigQuery exports (NDJSON), recognizing each by its \
            content. Folders are read recursively, and - reads NDJSON from standard input. Trails embedded in \
            payloads are decoded and stored; .ips crashes are joined to separate trail files from --trails by \
            bundle ID, pid and launch time. Running it again over the same inputs stores nothing new, and a trail \
            that arrives later attaches to its stored crash. Refused inputs are copied to the quarantine folder \
            with a .reason.txt beside each.

            Exit status: 0 when the job ran, even if some inputs were refused; 1 when it could not run (the \
            store or quarantine folder could not be written, or a manifest could not be read); 2 with --strict \
            when any input was refused; 64 for bad usage.

            Examples:

              crashtrail ingest Samples/reports --trails Samples/trails \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail ingest crashes/ --format json --quiet

            The trails of sessions that did not crash (their session says how it ended, SPEC section 20) are \
            counted for paths --rate and join no crash; a folder of them needs no payloads:

              crashtrail ingest --trails Samples/sessions \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
            """
    )

    @Argument(help: "Payload files and folders, or - for NDJSON on standard input; none with --trails alone.")
    var paths: [String] = []

    @OptionGroup var manifests: ManifestOptions

    @Option(
        name: .long, help: ArgumentHelp("A folder of separate trail files (.ctr, .ct1, .json) to join to .ips crashes.", valueName: "dir"))
    var trails: String?

    @OptionGroup var storeOptions: StoreOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The project the reports and trails belong to, by ID or name (crashtrail project list): duplicates and joins are decided within it. Needed when the store has several projects.",
            valueName: "project"))
    var project: String?

    @Option(name: .long, help: "How many payloads to parse at once. Defaults to the number of cores.")
    var jobs: Int?

    @Option(name: .long, help: ArgumentHelp("Where refused inputs are copied, each with a reason file beside it.", valueName: "dir"))
    var quarantine: String = IntakeDefaults.quarantineDirectory

    @Option(name: .long, help: "The largest input read, in bytes (default 64 MiB); larger ones are refused as too-large.")
    var maxPayloadSize: Int?

    @OptionGroup var output: OutputOptions
    @OptionGroup var quietOptions: QuietOptions

    @Flag(name: .long, help: "Exit with status 2 when any input was refused.")
    var strict = false

    func validate() throws {
        guard !paths.isEmpty || trails != nil else {
            throw ValidationError("Give at least one file, folder or - to ingest, or a folder of trails with --trails.")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs).") }
        if let maxPayloadSize, maxPayloadSize < 1 { throw ValidationError("--max-payload-size must be at least 1 byte.") }
        if let problem = IngestOptions.problem(inputs: paths, trailsDirectory: trails) { throw ValidationError(problem) }
    }

    func run() throws {
        let options = IngestOptions(
            inputs: paths, trailsDirectory: trails, quarantineDirectory: quarantine,
            jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, maximumPayloadSize: maxPayloadSize ?? 64 << 20)
        let progress = ProgressLine(quiet: quietOptions.quiet)
        let result = try reportingFailure {
            let loaded = try manifests.load()
            let service = try TriageService(location: storeOptions.location, creating: true)
            return try service.ingest(options, project: project, manifests: loaded, observer: progress)
        }
        progress.finish()
        if output.isJSON {
            print(CanonicalJSON.string(of: result.summary.jsonValue))
        } else if !quietOptions.quiet {
            print(result.text(quarantine: quarantine))
        }
        if strict, result.summary.rejected > 0 { throw ExitCode(2) }
    }
}

extension ProgressLine: IngestProgressObserver {
    func ingest(madeProgress progress: IngestProgress) { show(progress.text) }
}
