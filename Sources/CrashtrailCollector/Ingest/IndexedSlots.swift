import Foundation

/// Per-index results that parallel workers fill; each index is written by exactly one worker, and the values
/// are read once every worker is done.
final class IndexedSlots<Value: Sendable>: @unchecked Sendable {
    private var slots: [Value]
    private let lock = NSLock()

    /// `count` slots, each holding `placeholder` until it is set.
    init(count: Int, placeholder: Value) {
        slots = Array(repeating: placeholder, count: count)
    }

    func set(_ index: Int, _ value: Value) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    var values: [Value] { lock.withLock { slots } }
}
