import CrashtrailIntake
import CrashtrailStore
import Foundation
import Testing

/// A payload whose own ID is empty or blank is named by its digest, like one without an ID (fuzz finding F11:
/// an `.ips` with `"incident_id": ""` was stored under the empty ID).
@Suite struct PayloadIDTests {
    private func outcomes(_ text: String) throws -> [PayloadProcessor.Outcome] {
        let processor = PayloadProcessor(decoder: try TestFiles.codec())
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { processor.process($0, source: "test") }.outcomes
    }

    private func records(_ text: String) throws -> [ReportRecord] {
        try outcomes(text).compactMap { outcome in if case .record(let record) = outcome { record } else { nil } }
    }

    @Test(arguments: ["", " ", "\t\n"])
    func blankIDsFallBackToTheDigest(id: String) throws {
        let escaped = id.replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n")
        let payloads = [
            // The fuzzer's input, shortened: an .ips header with an empty incident_id and a small body.
            "{\"bug_type\":\"309\",\"incident_id\":\"\(escaped)\"}\n{\"pid\":321,\"captureTime\":\"2026-11-02 14:45:05.0000 +0000\"}",
            "{\"event_id\":\"\(escaped)\",\"exception\":{\"values\":[{\"type\":\"NSRangeException\"}]}}",
        ]
        for payload in payloads {
            let stored = try records(payload)
            #expect(stored.count == 1, "\(payload)")
            for record in stored {
                #expect(record.id == record.sha256, "\(payload)")
                #expect(record.id.count == 64)
            }
        }
    }

    /// crashtrail's own report requires its ID (SPEC section 7): a blank one is refused, not replaced.
    @Test(arguments: ["", " ", "\t\n"])
    func aCrashtrailReportWithABlankIDIsRefused(id: String) throws {
        let escaped = id.replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n")
        let result = try outcomes("{\"crashtrail\":1,\"id\":\"\(escaped)\",\"time\":\"2026-11-02T14:45:05Z\"}")
        guard result.count == 1, case .rejected(let reason, _, _) = result[0] else {
            Issue.record("expected one rejection, got \(result)")
            return
        }
        #expect(reason.code == .invalidReport)
        #expect(reason.message.contains("\"id\""))
    }

    @Test func realIDsAreKept() throws {
        let stored = try records("{\"crashtrail\":1,\"id\":\"R-1\",\"time\":\"2026-11-02T14:45:05Z\"}")
        #expect(stored.map(\.id) == ["R-1"])
    }
}
