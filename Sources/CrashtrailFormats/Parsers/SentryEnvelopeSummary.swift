/// What a Sentry envelope's framing says before any item is parsed.
///
/// That is its header's `event_id` and `dsn`, and each item's type and size. A collector reads it to find the key, check Sentry's limits and tell an envelope that
/// carries a crash from one that carries only sessions or transactions.
package struct SentryEnvelopeSummary: Hashable, Sendable {
    /// One framed item.
    package struct Item: Hashable, Sendable {
        /// The item header's `type`, such as `event`, `attachment`, `session`, `transaction` or `client_report`.
        package var type: String
        /// Where its payload lies in the envelope's bytes.
        package var payload: Range<Int>
        /// The item header's `filename` (an attachment's).
        package var filename: String?

        /// Its payload's size in bytes.
        package var size: Int { payload.count }
    }

    /// The header's `event_id`, as written.
    package var eventID: String?
    /// The header's `dsn`, which carries the project key.
    package var dsn: String?
    /// The items, in order.
    package var items: [Item]
    /// How many bytes the envelope it was read from holds.
    package var byteCount: Int

    /// Reads the framing of an envelope.
    /// - Throws: `RejectionError` (`invalid-envelope`) naming the broken header or item.
    package init(_ bytes: UnsafeBufferPointer<UInt8>) throws(RejectionError) {
        self = try SentryEnvelopeParser.summary(bytes)
    }

    init(eventID: String?, dsn: String?, items: [Item], byteCount: Int) {
        self.eventID = eventID
        self.dsn = dsn
        self.items = items
        self.byteCount = byteCount
    }

    /// Whether this framing can be of an envelope of `count` bytes: it was read from as many, and every item lies
    /// within them.
    ///
    /// A framing handed to the parser (``ParseContext``) must have been read from the same bytes. This check, which
    /// costs nothing, refuses one read from bytes of another length; bytes of the same length with another framing are
    /// the caller's to rule out.
    func frames(_ count: Int) -> Bool {
        byteCount == count && items.allSatisfy { $0.payload.lowerBound >= 0 && $0.payload.upperBound <= count }
    }

    /// Whether an item carries a crash report: only `event` items do.
    package var carriesEvent: Bool { items.contains { $0.type == "event" } }
}
