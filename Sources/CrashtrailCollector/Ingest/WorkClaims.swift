import Foundation

/// Hands out the indexes `0..<count` to workers, each once, in order.
final class WorkClaims: @unchecked Sendable {
    private let count: Int
    private var nextIndex = 0
    private let lock = NSLock()

    init(count: Int) {
        self.count = count
    }

    /// The next unclaimed index, or nil when all are taken.
    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextIndex < count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }
}
