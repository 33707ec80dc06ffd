import CrashtrailCore
import CrashtrailEncoding
import Foundation

/// Hands the latest trail to the sinks on a serial background queue, coalescing bursts: while a delivery runs,
/// newer trails replace each other, and the last one is delivered next.
final class SinkPump: @unchecked Sendable {
    private let codec: TrailCodec
    private let queue = DispatchQueue(label: "crashtrail.sinks", qos: .utility)
    private let lock = NSLock()
    private let idle = NSCondition()
    // Guarded by `lock`.
    private var sinks: [TrailSink] = []
    private var latest: Trail?
    private var running = false
    /// The split keys each keys sink was last handed, so that keys no longer used are cleared.
    private var lastKeys: [Int: Set<String>] = [:]
    private var lastFailure: TrailCodecError?

    /// Why the last encoding failed, if it did (a trail over the codec's limits).
    var failure: TrailCodecError? { lock.withLock { lastFailure } }

    init(manifest: Manifest) {
        codec = TrailCodec(manifests: [manifest])
    }

    func add(_ sink: TrailSink) {
        lock.withLock { sinks.append(sink) }
    }

    var isEmpty: Bool { lock.withLock { sinks.isEmpty } }

    /// Queues `trail` for the sinks; returns at once.
    func submit(_ trail: Trail) {
        let start: Bool = lock.withLock {
            latest = trail
            if running { return false }
            running = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    /// Waits until every trail submitted so far has been handed to the sinks.
    func waitUntilDelivered() {
        idle.lock()
        while lock.withLock({ running }) { idle.wait() }
        idle.unlock()
    }

    private func drain() {
        while true {
            let next: (Trail, [TrailSink])? = lock.withLock {
                guard let trail = latest else {
                    running = false
                    return nil
                }
                latest = nil
                return (trail, sinks)
            }
            guard let (trail, sinks) = next else { break }
            deliver(trail, to: sinks)
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
                let previous = lock.withLock { lastKeys[index] ?? [] }
                for stale in previous where keys[stale] == nil { keys[stale] = "" }
                lock.withLock { lastKeys[index] = Set(keys.keys) }
                sink.deliver(.keys(keys))
            }
        }
    }
}
