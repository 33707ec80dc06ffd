import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailIntake
@testable import CrashtrailStore

/// Every sample and fixture crash, written as Apple text (as Console renders an `.ips`) and read back, is the same
/// normalized report in the same group: its exception (the language exception's name and reason too), its crashed
/// thread (index and frames: image, symbol, offset), the uncaught exception's backtrace and the binary images' UUIDs and
/// load addresses.
@Suite("Apple text round trips")
struct AppleTextRoundTripTests {
    static func inputs() throws -> [URL] {
        let root = PackageRoot.url
        var folders = [root.appendingPathComponent("Samples/reports"), root.appendingPathComponent("Tests/Fixtures/differential/kscrash")]
        if let shared = TestFiles.fixtures {
            folders += ["ips", "kscrash", "metrickit", "sentry"].map { shared.appendingPathComponent($0) }
        }
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
                .filter { !$0.hasSuffix(".txt") && !$0.hasSuffix(".md") && $0 != "LICENSE" }
                .map { folder.appendingPathComponent($0) }
        }
    }

    static func records(_ bytes: [UInt8], source: String) -> [ReportRecord] {
        bytes.withUnsafeBufferPointer { PayloadProcessor(decoder: TrailDecodingStub()).process($0, source: source).outcomes }
            .compactMap { outcome in if case .record(let record) = outcome { record } else { nil } }
    }

    @Test("Each crash reads back from its Apple text rendering as the same report and group")
    func roundTrips() throws {
        var checked = 0
        for url in try Self.inputs() {
            for record in Self.records(Array(try Data(contentsOf: url)), source: url.lastPathComponent) {
                let report = record.report
                let text = AppleTextWriter.text(of: report)
                let again = try #require(Self.records(Array(text.utf8), source: "text").first, "\(url.lastPathComponent): \(text)")
                let name = "\(url.lastPathComponent) \(record.id)"
                #expect(again.signature == record.signature, "\(name)")
                #expect(again.report.frames.map(\.image) == report.frames.map(\.image), "\(name)")
                #expect(again.report.frames.map(\.symbol) == report.frames.map(\.symbol), "\(name)")
                for (mine, theirs) in zip(again.report.frames, report.frames) where theirs.offset != nil {
                    #expect(mine.offset == theirs.offset, "\(name)")
                }
                #expect(again.report.exceptionBacktrace.map(\.symbol) == report.exceptionBacktrace.map(\.symbol), "\(name)")
                #expect(again.report.app == report.app || report.app.bundleID == nil, "\(name)")
                #expect(again.report.exception.language == report.exception.language, "\(name)")
                #expect(again.report.crashedThread == (report.crashedThread ?? 0), "\(name)")
                for image in report.binaryImages {
                    let read = again.report.binaryImages.first { $0.name == image.name }
                    #expect(read?.uuid == image.uuid, "\(name) \(image.name)")
                    if let address = image.loadAddress { #expect(read?.loadAddress == address, "\(name) \(image.name)") }
                }
                checked += 1
            }
        }
        #expect(checked >= 20, "\(checked) crashes")
    }
}
