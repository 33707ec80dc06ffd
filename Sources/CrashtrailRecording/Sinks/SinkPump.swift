import CrashtrailCore
import CrashtrailEncoding
import Foundation

/// Hands the trail to the sinks on a serial background queue, so the thread that records only queues the step.
///
/// The pump keeps its own copy of the recorder's ``BoundedTrail`` and applies the queued steps to it on its
/// queue: the same steps through the same rule give the same trail, without copying the trail on the recording
/// thread. A burst of steps is applied together and handed over once, as its last trail.
///
/// `@unchecked` because it runs in apps down to iOS 16, where Synchronization's `Mutex` does not exist, and waits on a
/// condition variable; its state is touched only on `queue` or under `idle`.
final class SinkPump: @unchecked Sendable {
    private let queue = DispatchQueue(label: "crashtrail.sinks", qos: .utility)
    private let idle = NSCondition()
    private let lock = NSLock()
    // Guarded by `lock`.
    private var sinks: [TrailSink] = []
    private var pending: [(Step, Int)] = []
    /// Whether the sinks need the trail even without a new step (a sink was just added).
    private var stale = true
    private var running = false
    private var lastFailure: TrailCodecError?
    // Touched only on `queue`.
    private var mirror: BoundedTrail
    private let app: Trail.AppInfo
    private let session: Trail.Session
    private let codec: TrailCodec
    /// The split keys each keys sink was last handed, so that keys no longer used are cleared.
    private var lastKeys: [Int: Set<String>] = [:]

    /// A pump whose trail starts as `kept`.
    init(mirroring kept: BoundedTrail, app: Trail.AppInfo, session: Trail.Session) {
        mirror = kept
        self.app = app
        self.session = session
        codec = TrailCodec(manifests: [kept.liveEngine.manifest])
    }

    /// Adds a sink; it is handed the current trail soon.
    func add(_ sink: TrailSink) {
        lock.withLock {
            sinks.append(sink)
            stale = true
        }
        start()
    }

    /// Queues a recorded step (and the length of its canonical JSON); returns at once.
    func submit(_ step: Step, size: Int) {
        lock.withLock { pending.append((step, size)) }
        start()
    }

    /// Why the last trail could not be encoded for the sinks, if it could not (a trail over the codec's limits).
    var failure: TrailCodecError? { lock.withLock { lastFailure } }

    /// Waits until every step queued so far has been handed to the sinks.
    func waitUntilDelivered() {
        idle.lock()
        while lock.withLock({ running }) { idle.wait() }
        idle.unlock()
    }

    private func start() {
        let starting: Bool = lock.withLock {
            if running { return false }
            running = true
            return true
        }
        if starting { queue.async { self.drain() } }
    }

    private func drain() {
        var batch: [(Step, Int)] = []
        while true {
            let sinks: [TrailSink]? = lock.withLock {
                guard !pending.isEmpty || stale else {
                    running = false
                    return nil
                }
                swap(&pending, &batch)
                stale = false
                return self.sinks
            }
            guard let sinks else { break }
            for (step, size) in batch { mirror.append(step, size: size) }
            batch.removeAll(keepingCapacity: true)
            deliver(mirror.trail(app: app, session: session, stampingFinal: true), to: sinks)
        }
        idle.lock()
        idle.broadcast()
        idle.unlock()
    }

    private func deliver(_ trail: Trail, to sinks: [TrailSink]) {
        let binary: [UInt8]
        do {
            binary = try codec.encodeBinary(trail)
        } catch {
            lock.withLock { lastFailure = error }
            return
        }
        for (index, sink) in sinks.enumerated() {
            switch sink.form {
            case .binary:
                sink.deliver(.binary(binary))
            case .text:
                sink.deliver(.text(TrailCodec.text(ofBinary: binary)))
            case .keys(let limit):
                guard var keys = try? TrailCodec.keys(ofBinary: binary, limit: limit) else { continue }
                for stale in lastKeys[index] ?? [] where keys[stale] == nil { keys[stale] = "" }
                lastKeys[index] = Set(keys.keys)
                sink.deliver(.keys(keys))
            }
        }
    }
}
