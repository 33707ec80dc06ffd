#if canImport(Glibc)
import Glibc
#endif

/// Puts the calling thread at the lowest scheduling priority the system gives a thread, so that it runs only on cores
/// no other work wants.
///
/// On Linux that is `SCHED_IDLE`: the scheduler runs the thread only when no thread of a normal policy, at any nice
/// value, is ready on its core, and takes the core back from it at once when one is. A nice value of 19 is not enough
/// for that: under load it still takes a share of each core, and its wake-ups and cache misses cost the requests
/// `serve` answers. Where `SCHED_IDLE` is refused, the thread gets nice 19. Elsewhere it does nothing.
enum LowestPriority {
    /// Linux's `SCHED_IDLE` policy (`<linux/sched.h>`), which Glibc's module does not export.
    static let schedIdle: Int32 = 5

    /// Lowers the calling thread's priority; a thread may always lower its own.
    static func apply() {
        #if os(Linux)
        var parameters = sched_param()
        // On Linux, 0 names the calling thread, not the process.
        if sched_setscheduler(0, schedIdle, &parameters) != 0 {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        }
        #endif
    }
}
