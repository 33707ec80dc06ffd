import ArgumentParser
import CrashtrailCore
import CrashtrailService

/// `crashtrail reprocess`: every stored report derived again from its payload, after an upgrade.
struct ReprocessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reprocess",
        abstract: "Derive every stored report again from its stored payload, as this version of crashtrail does.",
        discussion: """
            After an upgrade, stored reports keep what the older version derived from their payloads: their \
            signatures (and so their groups), exception, frames and trails. reprocess reads each stored payload \
            again and updates what changed; payloads are never changed. It works in batches and remembers how far \
            it got, so a run that is stopped resumes where it stopped; running it again changes nothing. Trails \
            are decoded with the manifests the store keeps and those given. Examples:

              crashtrail reprocess
              crashtrail reprocess --store crashes.sqlite --manifest manifests/
            """
    )

    @OptionGroup var manifests: ManifestOptions
    @OptionGroup var quietOptions: QuietOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let progress = ProgressLine(quiet: quietOptions.quiet)
        let summary = try reportingFailure {
            let service = try TriageService(location: storeOptions.location, creating: false)
            return try service.reprocess(manifests: try manifests.load()) { done, total in
                progress.show("\(done)/\(total) reports reprocessed")
            }
        }
        progress.finish()
        for (id, why) in summary.unreadable.sorted(by: { $0.key < $1.key }) {
            printError("Note: report \(id) was left as it was: \(why)")
        }
        guard !quietOptions.quiet else { return }
        let reports = counted(summary.examined, "report")
        var line = "Reprocessed \(reports)\(summary.resumed ? " (resuming a run that had stopped)" : ""): \(summary.changed) changed"
        if !summary.unreadable.isEmpty { line += ", \(summary.unreadable.count) left as they were (see the notes above)" }
        print(line + ".")
    }
}
