import CrashtrailCore
import Foundation
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailReports
@testable import CrashtrailStore

/// Every parser gives the same reports (or the same refusals) with `SkimmingDecoder` as with Foundation's
/// `JSONDecoder`, which crashtrail used before: on the samples, the shared fixtures and generated payloads.
@Suite("SkimmingDecoder against JSONDecoder")
struct SkimmingDecoderDifferentialTests {
    /// Compares both engines on every payload of every file under `folders`.
    /// - Returns: how many payloads were parsed and refused, for the caller to check the test did something.
    private func compare(filesUnder folders: [URL]) throws -> (parsed: Int, refused: Int) {
        var parsed = 0
        var refused = 0
        for folder in folders {
            for file in EngineComparison.files(under: folder) {
                let bytes = [UInt8](try Data(contentsOf: file))
                for (payload, format) in EngineComparison.payloads(in: bytes) {
                    let (mine, reference) = EngineComparison.both(payload, as: format)
                    #expect(mine.matches(reference), "\(file.lastPathComponent): skimming \(mine), JSONDecoder \(reference)")
                    if case .parsed = mine { parsed += 1 } else { refused += 1 }
                }
            }
        }
        return (parsed, refused)
    }

    @Test("The samples parse to the same reports")
    func samples() throws {
        let (parsed, refused) = try compare(filesUnder: [TestFiles.samples.appendingPathComponent("reports")])
        // 11 reports from 10 files (one holds two lines); the truncated KSCrash sample never reaches a parser.
        #expect(parsed == 11)
        #expect(refused == 0)
    }

    @Test("The shared fixtures (real files from public projects) parse to the same reports or refusals", .needsFixtures)
    func fixtures() throws {
        let fixtures = try TestFiles.requiredFixtures()
        let (parsed, refused) = try compare(filesUnder: [fixtures])
        #expect(parsed >= 5)
        #expect(refused >= 1)
    }

    /// Folders named in `CRASHTRAIL_DIFFERENTIAL_CORPUS` (colon-separated), such as the ingest bench corpus, for
    /// a run by hand; none by default.
    @Test(
        "Extra corpus folders, when named, parse to the same reports",
        .enabled(
            if: ProcessInfo.processInfo.environment["CRASHTRAIL_DIFFERENTIAL_CORPUS"] != nil,
            "set CRASHTRAIL_DIFFERENTIAL_CORPUS to folders to compare"))
    func extraCorpus() throws {
        let list = try #require(ProcessInfo.processInfo.environment["CRASHTRAIL_DIFFERENTIAL_CORPUS"])
        let folders = list.split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        let (parsed, refused) = try compare(filesUnder: folders)
        print("Compared \(parsed) parsed and \(refused) refused payloads under \(list)")
        #expect(parsed > 0)
    }

    @Test("Generated payloads of every format give the same reports or refusals", arguments: ReportFormat.allCases)
    func generated(_ format: ReportFormat) {
        // Given: 250 seeded payloads of this format with odd shapes, odd numbers and odd strings
        var generator = GeneratedPayloads(seed: 0x5EED_0000 + UInt64(ReportFormat.allCases.firstIndex(of: format) ?? 0))
        var outcomes: [String: Int] = [:]
        for index in 0..<250 {
            let payload = generator.payload(format)
            // When
            let (mine, reference) = EngineComparison.both(payload, as: format)
            // Then
            #expect(
                mine.matches(reference),
                "payload \(index): \(String(decoding: payload, as: UTF8.self).prefix(2000))\nskimming: \(mine)\nJSONDecoder: \(reference)")
            outcomes[mine.code?.name ?? "parsed", default: 0] += 1
        }
        // Most are usable reports; some are refused: the comparison covered both.
        #expect(outcomes["parsed", default: 0] >= 80, "\(outcomes)")
    }

    @Test("Generated payloads exercise refusals too")
    func generatedRefusals() {
        var generator = GeneratedPayloads(seed: 0x5EED_0001)
        var codes: Set<String> = []
        for _ in 0..<400 {
            let (mine, _) = EngineComparison.both(generator.payload(.sentryEvent), as: .sentryEvent)
            if let code = mine.code { codes.insert(code.name) }
        }
        for _ in 0..<400 {
            let (mine, _) = EngineComparison.both(generator.payload(.kscrash), as: .kscrash)
            if let code = mine.code { codes.insert(code.name) }
        }
        // A lone surrogate or invalid UTF-8 in a field read outside `Lenient` is invalid JSON; a required section
        // of the wrong type is an invalid report.
        #expect(codes.contains("invalid-json"), "\(codes)")
        #expect(codes.contains("invalid-report"), "\(codes)")
    }
}
