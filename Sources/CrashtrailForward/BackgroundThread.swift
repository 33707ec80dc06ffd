import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own, at the lowest scheduling priority the system gives a thread, that runs work one piece at a time.
///
/// `serve` prepares the events it forwards here, so under load the requests it answers keep the cores and forwarding
/// takes what they leave: an acknowledgement is never slowed by forwarding, and the outbox drains when the load eases.
package final class BackgroundThread: Sendable {
    private struct State {
        var work: [@Sendable () -> Void] = []
        var stopped = false
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)

    /// Starts the thread; `nice` is its nice value on Linux (19, the lowest priority, by default).
    package init(name: String, nice: Int32 = 19) {
        // The thread holds the object until `stop()` lets it end.
        let thread = Thread { [self] in
            #if os(Linux)
            // On Linux a nice value is a thread's own: PRIO_PROCESS with 0 sets this thread's, not the process's.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
            #endif
            while true {
                ready.wait()
                let next = state.withLock { state -> (@Sendable () -> Void)? in state.work.isEmpty ? nil : state.work.removeFirst() }
                guard let next else {
                    if state.withLock({ $0.stopped }) { return }
                    continue
                }
                next()
            }
        }
        thread.name = name
        thread.start()
    }

    /// Runs `body` on the thread and returns its result.
    package func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            state.withLock { $0.work.append { continuation.resume(returning: body()) } }
            ready.signal()
        }
    }

    /// Lets the thread end once its work is done.
    package func stop() {
        state.withLock { $0.stopped = true }
        ready.signal()
    }
}
