import Testing

/// The CI-sized version of the scale test's long trail (`ScaleTests.longTrail`).
@Suite("Long trails", .serialized)
struct LargeTrailDecodeTests {
    @Test("A trail of 250,000 steps: refused by the default 200,000-step limit, decoded within the memory bound when it fits")
    func overTheDefaultLimit() throws {
        let count = 250_000
        let outcome = try LargeTrailDecode.run(steps: count)
        LargeTrailDecode.check(outcome, steps: count)
        #expect(outcome.refusal.code == .tooManySteps, "\(outcome.refusal)")
    }
}
