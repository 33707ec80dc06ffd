import CrashtrailCore
import CrashtrailReports
import CrashtrailStore
import Foundation
import Synchronization

/// Where derivation gets the grouping rules and merges it applies (SPEC section 21): a book read once (a batch job, a
/// reprocess), or the store's, read again every few seconds so a running `serve` follows `crashtrail grouping set`
/// and `group merge` without a restart.
package enum GroupingSource: Sendable {
    /// These rules and merges, for the job's life.
    case fixed(GroupingRuleBook)
    /// The store's, as they are now.
    case live(LiveGroupingRules)

    /// The rules and merges to apply now.
    package var current: GroupingRuleBook {
        switch self {
        case .fixed(let book): book
        case .live(let live): live.current
        }
    }
}

/// A store's grouping rules and merges, read again when they are older than the refresh interval.
///
/// What `serve` derives with. A read that fails keeps the rules read before (the next request tries again).
package final class LiveGroupingRules: Sendable {
    private struct Known {
        var book: GroupingRuleBook
        /// When it was read, on the monotonic clock.
        var readAt: UInt64
    }

    private let store: ReportStore
    private let known: Mutex<Known>
    private let refreshInterval: TimeInterval
    private let time: TimeSource

    /// The store's rules and merges, read now.
    /// - Parameters:
    ///   - store: the store that keeps them.
    ///   - refreshInterval: how old they may be, in seconds, before a payload's derivation reads them again.
    ///   - time: the clock.
    /// - Throws: `StoreError` when they cannot be read now.
    package init(store: ReportStore, refreshInterval: TimeInterval = 5, time: TimeSource = .system) throws(StoreError) {
        self.store = store
        self.time = time
        self.refreshInterval = refreshInterval
        known = Mutex(Known(book: try store.groupingRuleBook(), readAt: time.uptimeNanoseconds()))
    }

    /// The rules and merges, read again first when they are older than the refresh interval.
    package var current: GroupingRuleBook {
        let (book, due) = known.withLock { ($0.book, time.seconds(since: $0.readAt) >= refreshInterval) }
        guard due else { return book }
        // Read outside the lock; another payload may read at the same time, and either result is the store's.
        guard let fresh = try? store.groupingRuleBook() else {
            known.withLock { $0.readAt = time.uptimeNanoseconds() }
            return book
        }
        known.withLock { $0 = Known(book: fresh, readAt: time.uptimeNanoseconds()) }
        return fresh
    }
}
