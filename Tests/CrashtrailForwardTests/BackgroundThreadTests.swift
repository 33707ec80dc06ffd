import Foundation
import Testing

@testable import CrashtrailForward

/// Forwarding's thread of its own, as `top`, `perf` and `/proc` show it.
@Suite("Forwarding's background thread")
struct BackgroundThreadTests {
    /// The name the kernel holds for the thread that runs this, its nice value and its scheduling policy (`/proc`'s
    /// stat fields 19 and 41).
    static func ownThread() -> (name: String, nice: Int?, policy: Int?) {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        let stat = (try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)) ?? ""
        // Fields after the name, which is in parentheses and may hold spaces: field 3 is the first of them.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        return (
            name.trimmingCharacters(in: .newlines), fields.count > 38 ? Int(fields[16]) : nil, fields.count > 38 ? Int(fields[38]) : nil
        )
    }

    @Test(
        "The thread bears its name, cut to the 15 bytes Linux keeps, and runs at the lowest priority",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/thread-self/comm"), "needs Linux's /proc")
    )
    func namedAndIdle() async {
        let thread = BackgroundThread(name: "crashtrail-test-background")
        defer { thread.stop() }
        let seen = await withCheckedContinuation { continuation in
            thread.submit { continuation.resume(returning: Self.ownThread()) }
        }
        #expect(seen.name == "crashtrail-test")
        // SCHED_IDLE, or nice 19 under the normal policy (0) where that is refused.
        #expect(seen.policy == Int(LowestPriority.schedIdle) || (seen.policy == 0 && seen.nice == 19), "\(seen)")
        #expect(Self.ownThread().name != "crashtrail-test")
    }
}
