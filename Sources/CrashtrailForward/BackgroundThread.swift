import Foundation
import Synchronization

/// A thread of its own, at the lowest scheduling priority the system gives a thread (``LowestPriority``), that runs work
/// one piece at a time.
///
/// `serve` forwards from here (it is the executor its forwarding tasks prefer), so under load the requests it answers
/// keep the cores and forwarding takes what they leave: an acknowledgement is never slowed by forwarding, and the
/// outbox drains when the load eases.
///
/// Work here must not hold what normal work waits for (the store's writer, a connection), nor hand work to threads
/// that may be started for it: a thread starts with the priority of the thread that starts it.
package final class BackgroundThread: Sendable {
    private struct State {
        var work: [@Sendable () -> Void] = []
        var stopped = false
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)

    /// Starts the thread.
    /// - Parameter name: the thread's name in `top`, `perf` and `/proc`: Linux keeps 15 bytes of it, and names nothing
    ///   when given more, so a longer one is cut to 15.
    package init(name: String) {
        var shown = Substring(name)
        while shown.utf8.count > 15 { shown = shown.dropLast() }
        let threadName = String(shown)
        // The thread holds the object until `stop()` lets it end.
        let thread = Thread { [self] in
            Self.nameCallingThread(threadName)
            LowestPriority.apply()
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
        thread.name = threadName
        thread.start()
    }

    /// Gives the calling thread `name` where the kernel keeps it (`comm`): Foundation's `Thread.name` does not reach
    /// it on Linux, and Glibc's `pthread_setname_np` is not visible to Swift.
    private static func nameCallingThread(_ name: String) {
        #if os(Linux)
        let file = open("/proc/thread-self/comm", O_WRONLY)
        guard file >= 0 else { return }
        _ = name.utf8CString.withUnsafeBufferPointer { write(file, $0.baseAddress, $0.count - 1) }
        close(file)
        #endif
    }

    /// Runs `body` on the thread, after the work queued before it.
    package func submit(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.work.append(body) }
        ready.signal()
    }

    /// Lets the thread end once its work is done.
    package func stop() {
        state.withLock { $0.stopped = true }
        ready.signal()
    }
}

/// The thread as the executor of tasks that prefer it (`withTaskExecutorPreference`): `serve`'s forwarding runs there
/// whole, its waits and answers included, so that none of it takes a thread of the pool that answers requests.
extension BackgroundThread: TaskExecutor {
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        submit { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
