import CrashtrailCore
import CrashtrailEncoding
import Foundation
import Testing

/// Encodes a long generated trail, then decodes it twice: with the default limits, which must refuse it before building
/// it, and with limits raised to fit, which must decode every step within a memory bound that grows with the step count.
///
/// Used by the CI-sized test (a little over the default step limit) and by the scale test (`Tools/reliability-scale.sh`).
enum LargeTrailDecode {
    /// The most the decode may raise the resident set, per decoded step, above a fixed allowance.
    ///
    /// A decoded step is a `Step` value in an array plus its destination's payload dictionary; 256 bytes a step leave room
    /// for the array's growth by doubling and the allocator's rounding (about 70 bytes a step were measured at 1,000,000
    /// steps), and fails if a decode keeps, say, its whole inflated body per step.
    static let bytesPerStep = 256
    /// A fixed allowance for the inflated body and the canonical JSON checked against the header's checksum.
    static let fixedAllowance = 64 << 20

    struct Outcome {
        var encodedBytes: Int
        var refusal: TrailCodecError
        var decodedSteps: Int
        /// How much the resident set rose while decoding with raised limits.
        var decodePeakGrowth: Int
        var bound: Int
        var seconds: Double
    }

    static func run(steps count: Int) throws -> Outcome {
        // Given: `count` steps, a third of them pushes
        var steps: [Step] = []
        steps.reserveCapacity(count)
        for index in 0..<count {
            steps.append(Step(t: Int64(index / 4), index % 3 == 0 ? .push(Destination("item", ["id": .string("L-\(index % 7)")])) : .pop))
        }
        let trail = Trail(
            app: .init(bundleID: "com.example.big", version: "1", build: "1"),
            session: .init(id: "S", started: "2026-11-02T14:45:05Z", pid: 1), steps: steps)
        steps = []
        let binary = try TrailCodec().encodeBinary(trail)
        _ = consume trail

        // When: decoded with the default limits
        var refusal: TrailCodecError?
        do {
            let decoded = try TrailCodec().decode(binary)
            Issue.record("\(count) steps were decoded with the default limits (\(decoded.steps.count) steps) instead of refused")
        } catch {
            refusal = error
        }

        // When: decoded with limits that fit, measuring the peak resident set from here
        let limits = TrailCodec.Limits(maximumInflatedSize: Int.max / 2, maximumInputSize: Int.max / 2, maximumSteps: count)
        let baseline = try #require(ProcessMemory.resetPeak(), "this platform cannot measure the peak resident set")
        let started = Date()
        let decodedSteps = try TrailCodec(limits: limits).decode(binary).steps.count
        let seconds = Date().timeIntervalSince(started)
        let peak = try #require(ProcessMemory.peakResident)
        return Outcome(
            encodedBytes: binary.count, refusal: try #require(refusal), decodedSteps: decodedSteps,
            decodePeakGrowth: max(0, peak - baseline), bound: fixedAllowance + bytesPerStep * count, seconds: seconds)
    }

    /// The expectations both tests share.
    static func check(_ outcome: Outcome, steps count: Int) {
        #expect(outcome.refusal.code == .tooManySteps || outcome.refusal.code == .declaredSizeOverCap, "\(outcome.refusal)")
        #expect(outcome.refusal.message.contains("steps") || outcome.refusal.message.contains("bytes"), "\(outcome.refusal)")
        #expect(outcome.decodedSteps == count)
        #expect(
            outcome.decodePeakGrowth <= outcome.bound,
            "decoding \(count) steps raised the resident set by \(outcome.decodePeakGrowth >> 20) MiB, over the bound of \(outcome.bound >> 20) MiB"
        )
    }
}
