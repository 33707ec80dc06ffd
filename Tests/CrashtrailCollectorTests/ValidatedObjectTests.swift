import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailReports
@testable import CrashtrailStore

/// A single-object input is detected from the keys its one validating pass finds, and parsed without a second
/// pass: the same formats, refusals and parsed payloads as detecting byte by byte and validating again.
@Suite struct ValidatedObjectTests {
    /// Checks one input: when it validates as one object, its keys, format and parse agree with the byte-by-byte path.
    /// - Returns: whether it took the validated path.
    @discardableResult
    private func check(_ bytes: [UInt8], _ name: String) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let object = ValidatedObject(buffer) else { return false }
            #expect(object.keys == TopLevelKeys.scan(buffer)?.keys, "\(name): keys")
            let detected = Result { try FormatDetector.detect(buffer) }
            let classified = Result { try FormatDetector.classify(object.keys) }
            switch (detected, classified) {
            case (.success(let detection), .success(let format)):
                #expect(detection == .single(format), "\(name): detection")
                let plain = outcome { () throws(RejectionError) in
                    try PayloadParser.parse(buffer, as: format, context: ParseContext()).payloads
                }
                let shared = outcome { () throws(RejectionError) in
                    try PayloadParser.parse(buffer, as: format, context: ParseContext(structure: object.structure)).payloads
                }
                #expect(plain == shared, "\(name): parse")
            case (.failure(let detectError), .failure(let classifyError)):
                #expect(detectError as? RejectionError == classifyError as? RejectionError, "\(name): refusal")
            default:
                Issue.record("\(name): detection \(detected) but classification \(classified)")
            }
            return true
        }
    }

    /// A parse's result in a form that compares equal exactly when the two parses gave the same payloads or the
    /// same refusal, word for word.
    private func outcome(_ parse: () throws(RejectionError) -> [ParsedPayload]) -> EngineComparison.Outcome {
        do {
            return .parsed(try parse().map(EngineComparison.Parsed.init))
        } catch {
            return .rejected(error.code, error.message)
        }
    }

    private func inputs(under folder: URL) throws -> [(bytes: [UInt8], name: String)] {
        var inputs: [(bytes: [UInt8], name: String)] = []
        for file in EngineComparison.files(under: folder) {
            let bytes = [UInt8](try Data(contentsOf: file))
            inputs.append((bytes, file.lastPathComponent))
            for (index, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
                inputs.append((Array(line), "\(file.lastPathComponent):\(index + 1)"))
            }
        }
        return inputs
    }

    @Test func samplesAgreeWithByteByByteDetection() throws {
        #expect(try validatedCount(under: [TestFiles.samples.appendingPathComponent("reports")]) >= 10)
    }

    @Test(.needsFixtures) func samplesAndFixturesAgreeWithByteByByteDetection() throws {
        let folders = [TestFiles.samples.appendingPathComponent("reports"), try TestFiles.requiredFixtures()]
        #expect(try validatedCount(under: folders) >= 10)
    }

    /// How many inputs under `folders` were checked (each disagreement is recorded as it is found).
    private func validatedCount(under folders: [URL]) throws -> Int {
        var validated = 0
        for folder in folders {
            for (bytes, name) in try inputs(under: folder) where check(bytes, name) { validated += 1 }
        }
        return validated
    }

    @Test func generatedPayloadsAndVariantsAgree() {
        var validated = 0
        for format in ReportFormat.allCases {
            var generator = GeneratedPayloads(seed: 0xD17E_C700 + UInt64(ReportFormat.allCases.firstIndex(of: format) ?? 0))
            for index in 0..<150 {
                let payload = generator.payload(format)
                let variants: [[UInt8]] = [
                    payload, Array(" \n\t".utf8) + payload + Array("\r\n ".utf8), [0xEF, 0xBB, 0xBF] + payload,
                    Array(payload.prefix(payload.count / 2)), payload + Array("\n{}".utf8), Array("[".utf8) + payload + Array("]".utf8),
                ]
                for (variant, bytes) in variants.enumerated() where check(bytes, "\(format) \(index) variant \(variant)") {
                    validated += 1
                    #expect(variant < 2, "only whole single objects take the validated path (variant \(variant))")
                }
            }
        }
        #expect(validated > 300)
        // Keys written with escapes stay as written, as the byte-by-byte scan keeps them.
        #expect(
            check(
                Array(#"{"bug\u005ftype":"309","event_id":"x","nested":{"crashtrail":1},"list":[{"a":1},[2]],"n":-1.5e3,"t":true}"#.utf8),
                "escaped"))
        #expect(check(Array("{}".utf8), "empty"))
        #expect(check(Array(#"{"crashtrail":1,"id":"a","time":"2026-11-02T14:45:05Z"}"#.utf8), "minimal"))
    }
}
