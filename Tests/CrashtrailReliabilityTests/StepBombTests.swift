import CrashtrailCore
import CrashtrailEncoding
import Foundation
import Testing

/// Regression test: a tiny binary trail that decodes to hundreds of thousands of steps (each step is about one body
/// byte, and the body compresses about 1000:1) must be refused by its step count before any step is built.
@Suite("Step bombs")
struct StepBombTests {
    @Test("A binary trail of 400,000 steps (a few KB), twice the default 200,000-step limit, is refused before it is built")
    func stepBomb() throws {
        // Given: 400,000 alternating push/pop steps, twice the codec's default limit
        let limit = TrailCodec.Limits().maximumSteps
        #expect(limit == 200_000)
        let steps = (0..<2 * limit).map { index in
            Step(t: Int64(index), index % 2 == 0 ? .push(Destination("item", ["id": .string("L-1")])) : .pop)
        }
        let trail = Trail(
            app: .init(bundleID: "com.example.bomb", version: "1", build: "1"),
            session: .init(id: "S", started: "2026-11-02T14:45:05Z", pid: 1), steps: steps)
        let binary = try TrailCodec().encodeBinary(trail)
        #expect(binary.count < 10_000, "\(binary.count) bytes")
        // When / Then: refused with a reason naming the step count, not decoded into memory
        do {
            let decoded = try TrailCodec().decode(binary)
            Issue.record("a \(binary.count)-byte binary trail was decoded into \(decoded.steps.count) steps instead of refused")
        } catch {
            #expect(error.code == .tooManySteps, "\(error)")
            #expect(error.message.contains("400000 steps") && error.message.contains("limit of 200000"), "\(error)")
        }
    }
}
