import Synchronization

/// Per-index results that parallel workers fill; each index is written by exactly one worker, and the values
/// are read once every worker is done.
final class IndexedSlots<Value: Sendable>: Sendable {
    private let slots: Mutex<[Value]>

    /// `count` slots, each holding `placeholder` until it is set.
    init(count: Int, placeholder: Value) {
        slots = Mutex(Array(repeating: placeholder, count: count))
    }

    func set(_ index: Int, _ value: Value) {
        slots.withLock { $0[index] = value }
    }

    var values: [Value] { slots.withLock { $0 } }
}
