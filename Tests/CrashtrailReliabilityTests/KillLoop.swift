import CrashtrailTestSupport
import Foundation
import Testing

/// Starts jobs and kills each with SIGKILL after a random delay until enough kills have landed on a running job,
/// within a bound on the attempts.
///
/// Only kills that hit a running job count: a job that finished before its kill proves nothing. The delay window
/// adapts to how long jobs run on this machine (halved after a job finished first, grown back after a kill landed),
/// so the loop does not depend on the machine's speed or load.
struct KillLoop {
    private(set) var landed = 0
    private(set) var attempts = 0
    private var window: Double
    private let longest: Double
    private var random: SplitMix64

    /// - Parameters:
    ///   - window: the longest delay before a kill, in seconds, at first.
    ///   - seed: the seed of the delays.
    init(window: Double, seed: UInt64) {
        self.window = window
        self.longest = window
        self.random = SplitMix64(seed: seed)
    }

    /// Runs jobs until `target` kills landed or `maximumAttempts` jobs were started.
    /// - Parameters:
    ///   - target: the kills that must land.
    ///   - maximumAttempts: the most jobs started.
    ///   - start: starts one job.
    /// - Returns: whether `target` kills landed.
    @discardableResult
    mutating func run(target: Int, maximumAttempts: Int, start: () throws -> IngestProcess) rethrows -> Bool {
        while landed < target, attempts < maximumAttempts {
            attempts += 1
            let job = try start()
            Thread.sleep(forTimeInterval: Double(random.next() % 1_000) / 1_000 * window)
            if job.kill() {
                landed += 1
                window = min(longest, window * 1.25)
            } else {
                #expect(job.status == 0, "a job ended with status \(job.status) before its kill: \(job.stderr.prefix(500))")
                window = max(0.002, window / 2)
            }
        }
        return landed >= target
    }
}
