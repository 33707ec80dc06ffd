import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// One crash is one group, whichever reporter sent it (docs/INGEST.md, "Signatures").
@Suite("One crash, one group")
struct GroupingCommandTests {
    @Test("Five crashes written in every format, 300 reports, ingest into exactly five groups")
    func everyFormatGroupsTogether() throws {
        // Given a generated corpus: five kinds of crash, each written by every reporter format on many builds and devices
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let generator = try #require(CommandRunner.locate(named: "crashtrail-corpus"), "the crashtrail-corpus executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manifest = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml").path
        let generated = try generator.run(
            ["corpus", "corpus", "--count", "300", "--seed", "7", "--manifest", manifest], directory: folder.url)
        try #require(generated.status == 0, "\(generated.stderr)")
        for format in ["ips", "sentry-event", "sentry-envelope", "kscrash", "crashlytics", "crashtrail"] {
            #expect(generated.stdout.contains("\(format) "), "the corpus has no \(format) reports: \(generated.stdout)")
        }
        // When it is ingested and the groups listed
        let ingest = try runner.run(
            ["ingest", "corpus/reports", "--trails", "corpus/trails", "--manifest", manifest, "--quiet"], directory: folder.url)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        let list = try runner.run(["list", "--format", "json"], directory: folder.url)
        let groups = try #require(try JSONParser.parse(list.stdoutBytes).arrayValue)
        let reports = try #require(
            try JSONParser.parse(try runner.run(["list", "--reports", "--format", "json"], directory: folder.url).stdoutBytes).arrayValue)
        // Then every kind is one group, holding reports of every format
        let signatures = groups.compactMap { $0["signature"]?.stringValue }
        #expect(groups.count == 5, "\(signatures.joined(separator: "\n"))")
        #expect(groups.compactMap { $0["count"]?.intValue }.reduce(0, +) == 300)
        for signature in signatures {
            let formats = Set(reports.filter { $0["signature"]?.stringValue == signature }.compactMap { $0["format"]?.stringValue })
            #expect(formats.count >= 5, "\(signature): only \(formats.sorted())")
        }
        #expect(
            signatures.contains { $0.hasPrefix("EXC_CRASH/SIGABRT @ ") }
                && signatures.contains { $0.hasPrefix("EXC_BAD_ACCESS/SIGSEGV @ ") })
    }
}
