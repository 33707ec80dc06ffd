import ArgumentParser
import CrashtrailCollector
import CrashtrailCore
import CrashtrailReplay
import Foundation

/// `crashtrail paths [GROUP]`: which screen paths lead to a crash (SPEC section 13).
struct PathsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "Show which paths through the app lead to a crash.",
        discussion: """
            Every stored report with a trail is replayed on a headless Navigator; its screen path is the screen \
            on top after each step. The last screens of each path (5 unless --last says otherwise) are counted: \
            the table lists each distinct sequence with how many reports share it and their share of the reports \
            with a trail, most first. GROUP is a group ID from `crashtrail list` (or a unique prefix); without \
            it, every report counts. Examples:

              crashtrail paths \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail paths 3f2a --last 3 --format json --manifest manifests/
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "A crash group ID from `crashtrail list`, or a unique prefix of one; every report when absent.")
    var group: String?

    @Option(help: "How many screens to keep from the end of each path.")
    var last = 5

    @Option(help: "The output format: text or json.")
    var format: OutputFormat = .text

    @Option(
        name: .customLong("manifest"),
        help: "The app's route manifest (YAML or JSON), or a folder of them. Repeat for several apps; each trail is replayed with its app's. Without it, the manifests the store keeps."
    )
    var manifests: [String] = []

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard last >= 1 else { throw ValidationError("--last takes a number of screens, 1 or more, for example --last 5") }
    }

    func run() async throws {
        do {
            let manifests = try ManifestFiles.given(self.manifests, orStoredIn: storeOptions.resolvedPath(), for: "paths")
            let store = try storeOptions.open()
            let selected = try group.map { prefix throws(StoreError) in try store.group(matchingPrefix: prefix) }
            let reports = try store.reports(ReportFilter(signature: selected?.signature)).filter { $0.trailInfo.source.hasTrail }
            var paths: [[String]] = []
            var manifestsByApp = ManifestsByApp(manifests)
            var skipped: [String: Int] = [:]
            for report in reports {
                guard let json = try store.record(id: report.id)?.trail, let trail = try? Trail(json: Array(json.utf8)) else {
                    skipped["report \(report.id): its stored trail cannot be read", default: 0] += 1
                    continue
                }
                let app = trail.app.bundleID
                guard let manifest = manifestsByApp.manifest(for: app) else {
                    skipped["no --manifest for the app \(app)", default: 0] += 1
                    continue
                }
                paths.append(ScreenPath.names(of: trail, manifest: manifest))
            }
            for warning in manifestsByApp.warnings { printError(warning) }
            for (why, count) in skipped.sorted(by: { $0.key < $1.key }) {
                printError("Note: \(count == 1 ? "1 report" : "\(count) reports") with a trail left out of the table: \(why)")
            }
            let table = PathTable(paths: paths, last: last, reportsWithTrail: reports.count)
            switch format {
            case .json: print(CanonicalJSON.string(of: table.jsonValue))
            case .text: print(table.text(title: selected.map { "group \($0.id)" } ?? "all reports"), terminator: "")
            }
        } catch {
            printFailure(error)
            throw ExitCode.failure
        }
    }
}
