import ArgumentParser
import CrashtrailCollector
import CrashtrailCore
import CrashtrailEncoding
import Foundation

/// `crashtrail reprocess`: every stored report derived again from its payload, after an upgrade.
struct ReprocessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reprocess",
        abstract: "Derive every stored report again from its stored payload, as this version of crashtrail does.",
        discussion: """
            After an upgrade, stored reports keep what the older version derived from their payloads: their \\
            signatures (and so their groups), exception, frames and trails. reprocess reads each stored payload \\
            again and updates what changed; payloads are never changed. It works in batches and remembers how far \\
            it got, so a run that is stopped resumes where it stopped; running it again changes nothing. Trails \\
            are decoded with the manifests the store keeps and those given. Example:

              crashtrail reprocess
              crashtrail reprocess --store crashes.sqlite --manifest manifests/
            """
    )

    @Option(
        name: .customLong("manifest"),
        help: "Manifests (files or folders) to keep in the store and decode trails with, besides those it keeps.")
    var manifests: [String] = []

    @Flag(name: .long, help: "Print no progress line.")
    var quiet = false

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let path = storeOptions.resolvedPath()
        guard StoreOptions.mayExist(path) else {
            printError("Error: there is no crash store at \(path); pass --store with the store crashtrail ingest filled")
            throw ExitCode.failure
        }
        do {
            let store = try StoreOptions.open(path, creating: false)
            for loaded in try ManifestFiles.loadWithText(manifests) { try store.addManifest(loaded.manifest, text: loaded.text) }
            let codec = TrailCodec(manifests: try store.storedManifests())
            let showsProgress = !quiet && isatty(STDERR_FILENO) == 1
            let summary = try store.reprocess(with: codec) { done, total in
                guard showsProgress else { return }
                FileHandle.standardError.write(Data("\r\u{1B}[2K\(done)/\(total) reports reprocessed".utf8))
            }
            if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
            for (id, why) in summary.unreadable.sorted(by: { $0.key < $1.key }) {
                printError("Note: report \(id) was left as it was: \(why)")
            }
            let reports = summary.examined == 1 ? "1 report" : "\(summary.examined) reports"
            var line = "Reprocessed \(reports)\(summary.resumed ? " (resuming a run that had stopped)" : ""): \(summary.changed) changed"
            if !summary.unreadable.isEmpty { line += ", \(summary.unreadable.count) left as they were (see the notes above)" }
            print(line + ".")
        } catch {
            printError("Error: \(error)")
            throw ExitCode.failure
        }
    }
}
