import ArgumentParser
import CrashtrailCollector
import CrashtrailCore
import CrashtrailEncoding
import Foundation

/// `crashtrail ingest PATH…`
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Store a batch of crash payloads with their navigation trails.",
        discussion: """
            Reads crashtrail reports, Sentry events and envelopes, Apple .ips crash reports, KSCrash reports and \
            Crashlytics BigQuery exports (NDJSON), recognizing each by its content. Folders are read recursively, \
            and - reads NDJSON from standard input. Trails embedded in payloads are decoded and stored; .ips \
            crashes are joined to separate trail files from --trails by bundle ID, pid and launch time. Running \
            it again over the same inputs stores nothing new, and a trail that arrives later attaches to its \
            stored crash. Refused inputs are copied to the quarantine folder with a .reason.txt beside each.

            Exit status: 0 when the job ran, even if some inputs were refused; 1 when it could not run (the \
            store or quarantine folder could not be written, or a manifest could not be read); 2 with --strict \
            when any input was refused; 64 for bad usage.

            Example:

              crashtrail ingest Samples/reports --trails Samples/trails \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
            """
    )

    @Argument(help: "Payload files and folders, or - for NDJSON on standard input.")
    var paths: [String]

    @Option(
        name: .long, help: "A manifest (or a folder of them) whose dictionary compressed trails may need. Repeat for several apps.")
    var manifest: [String] = []

    @Option(name: .long, help: "A folder of separate trail files (.ctr, .ct1, .json) to join to .ips crashes.")
    var trails: String?

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: "How many payloads to parse at once. Defaults to the number of cores.")
    var jobs: Int?

    @Option(name: .long, help: "Where refused inputs are copied, each with a reason file beside it.")
    var quarantine: String = "crashtrail-quarantine"

    @Option(name: .long, help: "The largest input read, in bytes (default 64 MiB); larger ones are refused as too-large.")
    var maxPayloadSize: Int?

    /// The payloads parsed at once: `--jobs`, else one per core.
    var resolvedJobs: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
    /// The largest input read: `--max-payload-size`, else 64 MiB.
    var resolvedMaxPayloadSize: Int { maxPayloadSize ?? 64 << 20 }

    @Flag(name: .long, help: "Print the summary as one JSON object.")
    var json = false

    @Flag(name: .long, help: "Print neither the progress line nor the text summary.")
    var quiet = false

    @Flag(name: .long, help: "Exit with status 2 when any input was refused.")
    var strict = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("Give at least one file, folder or - to ingest.") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs).") }
        if let maxPayloadSize, maxPayloadSize < 1 { throw ValidationError("--max-payload-size must be at least 1 byte.") }
        for path in paths where path != "-" && !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("The input \(path) does not exist.")
        }
        if paths.filter({ $0 == "-" }).count > 1 { throw ValidationError("Give - (standard input) at most once.") }
        if let trails {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: trails, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("The trails folder \(trails) does not exist or is not a folder.")
            }
        }
    }

    func run() throws {
        let given: [ManifestFiles.Loaded]
        do {
            given = try ManifestFiles.loadWithText(manifest)
        } catch {
            printError("Error: \(error)")
            throw ExitCode.failure
        }
        let summary: IngestSummary
        var decodedLater = 0
        do {
            let store = try storeOptions.open()
            // The store keeps every manifest it is given, so later commands need no --manifest and trails that came
            // before their manifest are decoded now.
            var added = 0
            for loaded in given where try store.addManifest(loaded.manifest, text: loaded.text) { added += 1 }
            let codec = TrailCodec(manifests: Self.merging(given.map(\.manifest), try store.storedManifests()))
            let options = IngestOptions(
                inputs: paths, trailsDirectory: trails, quarantineDirectory: quarantine, jobs: resolvedJobs,
                excludedFiles: IngestOptions.storeFiles(storeOptions.resolvedPath()), maximumPayloadSize: resolvedMaxPayloadSize)
            let pipeline = IngestPipeline(store: store, decoder: codec, options: options)
            let showsProgress = !quiet && isatty(STDERR_FILENO) == 1
            let observer = showsProgress ? TerminalProgress() : nil
            summary = try pipeline.run(observer: observer)
            observer?.finish()
            if added > 0 { decodedLater = try store.decodePendingTrails(with: codec) }
        } catch {
            printError("Error: \(error)")
            throw ExitCode.failure
        }
        if json {
            print(CanonicalJSON.string(of: summary.jsonValue))
        } else if !quiet {
            print(Self.text(of: summary, quarantine: quarantine))
            if decodedLater > 0 {
                print("  stored reports whose trail is decoded now that its manifest is known: \(decodedLater)")
            }
        }
        if strict, summary.rejected > 0 { throw ExitCode(2) }
    }

    /// `first`, then those of `second` whose dictionary ID `first` lacks.
    static func merging(_ first: [Manifest], _ second: [Manifest]) -> [Manifest] {
        var ids = Set(first.map { ManifestDictionary(manifest: $0).id })
        return first + second.filter { ids.insert(ManifestDictionary(manifest: $0).id).inserted }
    }

    /// The summary for people.
    static func text(of summary: IngestSummary, quarantine: String) -> String {
        var lines: [String] = []
        lines.append(
            "Ingested \(summary.inputs) input\(summary.inputs == 1 ? "" : "s") in \(String(format: "%.2f", summary.seconds)) s (\(String(format: "%.0f", summary.rate)) inputs/s).")
        if summary.stored == 0, summary.duplicates > 0 {
            lines.append(
                summary.duplicates == 1
                    ? "Nothing new: the one report was already stored."
                    : "Nothing new: all \(summary.duplicates) reports were already stored.")
        }
        lines.append("  stored       \(summary.stored) new")
        lines.append("  duplicates   \(summary.duplicates)")
        var rejected = "  rejected     \(summary.rejected)"
        if summary.rejected > 0 {
            let reasons = summary.rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            rejected += " (\(reasons.joined(separator: ", "))), copied to \(quarantine)/"
        }
        lines.append(rejected)
        if summary.skippedDiagnostics > 0 {
            lines.append("  skipped      \(summary.skippedDiagnostics) MetricKit diagnostic\(summary.skippedDiagnostics == 1 ? "" : "s") that are not crashes (hangs, CPU and disk exceptions, launches)")
        }
        lines.append(
            "  trails       embedded \(summary.trailsEmbedded), joined \(summary.trailsJoined), missing \(summary.trailsMissing), undecodable \(summary.trailsUndecodable)"
        )
        return lines.joined(separator: "\n")
    }
}

/// The live progress line on a terminal: done/total, rate and time left, redrawn in place on standard error.
final class TerminalProgress: IngestProgressObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var drew = false

    func ingest(madeProgress progress: IngestProgress) {
        var line = "\r\u{1B}[2K\(progress.done)"
        if let total = progress.total { line += "/\(total)" }
        line += " files and lines read, \(String(format: "%.0f", progress.rate))/s"
        if let left = progress.estimatedSecondsLeft { line += ", ETA \(String(format: "%.0f", left.rounded(.up))) s" }
        lock.lock()
        drew = true
        FileHandle.standardError.write(Data(line.utf8))
        lock.unlock()
    }

    /// Clears the line before the summary prints.
    func finish() {
        lock.lock()
        if drew { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        lock.unlock()
    }
}
