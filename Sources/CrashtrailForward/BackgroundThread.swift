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
    package init(name: String) {
        // The thread holds the object until `stop()` lets it end.
        let thread = Thread { [self] in
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
        thread.name = name
        thread.start()
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
