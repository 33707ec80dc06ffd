/// How far an ingest run has come, reported after each batch.
public struct IngestProgress: Hashable, Sendable {
    /// Inputs handled so far.
    public var done: Int
    /// Inputs in all, when known (not for standard input).
    public var total: Int?
    /// Seconds since the run started.
    public var elapsed: Double

    public init(done: Int, total: Int?, elapsed: Double) {
        self.done = done
        self.total = total
        self.elapsed = elapsed
    }

    /// Inputs per second so far.
    public var rate: Double { elapsed > 0 ? Double(done) / elapsed : 0 }

    /// Seconds left at the current rate, when the total is known.
    public var estimatedSecondsLeft: Double? {
        guard let total, rate > 0 else { return nil }
        return Double(max(0, total - done)) / rate
    }
}

/// Receives progress during an ingest run; the library never prints.
public protocol IngestProgressObserver: Sendable {
    /// Called after each batch is stored.
    func ingest(madeProgress progress: IngestProgress)
}
