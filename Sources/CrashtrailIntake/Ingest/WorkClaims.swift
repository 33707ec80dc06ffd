import Synchronization

/// Hands out the indexes `0..<count` to workers, each once, in order.
final class WorkClaims: Sendable {
    private let count: Int
    private let nextIndex = Mutex(0)

    init(count: Int) {
        self.count = count
    }

    /// The next unclaimed index, or nil when all are taken.
    func next() -> Int? {
        nextIndex.withLock { next in
            guard next < count else { return nil }
            next += 1
            return next - 1
        }
    }
}
