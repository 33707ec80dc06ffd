import CrashtrailFormats
import CrashtrailIntake
import CrashtrailStore
import Foundation
import Testing

/// A refused payload's reason says what broke; "it may be truncated" only when the text stopped short.
@Suite struct PayloadRejectionMessageTests {
    private func reason(_ text: String) throws -> RejectionError? {
        let processor = PayloadProcessor(decoder: try TestFiles.codec())
        let bytes = Array(text.utf8)
        let outcomes = bytes.withUnsafeBufferPointer { processor.process($0, source: "test") }.outcomes
        for outcome in outcomes { if case .rejected(let reason, _, _) = outcome { return reason } }
        return nil
    }

    @Test func tooDeepSaysSoAndIsNotCalledTruncated() throws {
        let deep = "{\"event_id\":\"x\",\"extra\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        let refused = try #require(try reason(deep))
        #expect(refused.code == .invalidJSON)
        #expect(refused.message.contains("nested deeper than 512"))
        #expect(!refused.message.contains("truncated"))
    }

    @Test func textThatStopsShortMayBeTruncated() throws {
        let refused = try #require(try reason(#"{"event_id":"x","exception":{"values":[{"type":"#))
        #expect(refused.code == .invalidJSON)
        #expect(refused.message.contains("it may be truncated"))
    }
}
