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
/// What `serve` derives with. One payload's derivation reads them while the others go on with the rules read before;
/// a read that fails keeps those, and is tried again after the interval. (`GroupingRuleBook` fails only on a
/// database error, or on rules a later crashtrail kept.)
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
        // The first payload to find them due claims the read (readAt moves on), so one payload reads at a time.
        let (book, claimed) = known.withLock { known -> (GroupingRuleBook, UInt64?) in
            guard time.seconds(since: known.readAt) >= refreshInterval else { return (known.book, nil) }
            known.readAt = time.uptimeNanoseconds()
            return (known.book, known.readAt)
        }
        guard let claimed, let fresh = try? store.groupingRuleBook() else { return book }
        known.withLock { known in
            // A read claimed later has the newer rules.
            if known.readAt == claimed { known.book = fresh }
        }
        return fresh
    }
}
