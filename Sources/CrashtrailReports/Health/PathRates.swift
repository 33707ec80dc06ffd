/// The crash rate of every screen, transition and sequence of a release (SPEC section 20): how many sessions went
/// through it, how many of those crashed, the rate with its 95 % Wilson interval, and its lift over the release's rate.
///
/// Sessions that did not crash come from the recorder's sampled trails, each weighing `1 / sampleRate`; crashed
/// sessions come from crash reports with trails, each weighing 1. Intervals use the effective sample size, so a
/// sampled count is never as certain as the sessions it stands for.
public struct PathRates: Sendable {
    /// The counts of one path in one release.
    public struct Counts: Sendable, Hashable {
        /// Sessions that did not crash, scaled by their sample rates.
        public var cleanSessions: Double = 0
        /// The sum of the squares of those sessions' weights (each 1 / its sample rate).
        public var cleanSquares: Double = 0
        /// Sampled trails of sessions that did not crash, unscaled.
        public var sampledTrails: Int64 = 0
        /// Crashed sessions, each weighing 1 (every crash is sent).
        public var crashed: Int64 = 0

        public init(cleanSessions: Double = 0, cleanSquares: Double? = nil, sampledTrails: Int64 = 0, crashed: Int64 = 0) {
            self.cleanSessions = cleanSessions
            self.cleanSquares = cleanSquares ?? cleanSessions
            self.sampledTrails = sampledTrails
            self.crashed = crashed
        }

        /// Every session through the path: the scaled clean ones and the crashed ones.
        public var sessions: Double { cleanSessions + Double(crashed) }

        /// How many unweighted sessions would give an estimate as certain (Kish's effective sample size,
        /// (Σw)² / Σw²): sampled sessions count for less than the sessions they stand for.
        public var effectiveSessions: Double {
            let squares = cleanSquares + Double(crashed)
            return squares > 0 ? sessions * sessions / squares : 0
        }

        /// The crash rate with its 95 % Wilson interval, over the effective sample size.
        public var interval: RateInterval {
            let rate = sessions > 0 ? Double(crashed) / sessions : 0
            let effective = effectiveSessions
            return RateInterval.wilson(successes: rate * effective, trials: effective)
        }

        public mutating func add(_ other: Counts) {
            cleanSessions += other.cleanSessions
            cleanSquares += other.cleanSquares
            sampledTrails += other.sampledTrails
            crashed += other.crashed
        }
    }

    /// One answer row.
    public struct Row: Sendable, Hashable {
        public var path: PathVisits.Path
        public var sessions: Double
        public var crashed: Int64
        public var interval: RateInterval
        /// The rate over the release's rate; 0 when the release has no crash.
        public var lift: Double
        /// Whether enough sessions went through it to rank it (`--min-sessions`, against the effective sessions).
        public var ranked: Bool
        /// With two releases: whether its rate rose beyond both intervals since the older one (transitions only; nil
        /// with one release).
        public var regression: Bool?
        /// Whether the clean sessions were sampled (scaled counts).
        public var scaled: Bool
    }

    /// The counts by path.
    public var paths: [PathVisits.Path: Counts]
    /// The release's own counts: every session with a trail.
    public var total: Counts

    public init(paths: [PathVisits.Path: Counts] = [:], total: Counts = Counts()) {
        self.paths = paths
        self.total = total
    }

    /// Adds a session's visits with its counts (a clean trail's weight, or one crash).
    public mutating func add(_ visits: PathVisits, _ counts: Counts) {
        for path in visits.paths { paths[path, default: Counts()].add(counts) }
        total.add(counts)
    }

    /// The release's crash rate among sessions with trails, with its interval.
    public var releaseInterval: RateInterval { total.interval }

    /// The rows, riskiest first: ranked rows by the low end of their interval (a rate known to be high before a rate
    /// that may be high), then rate, then sessions; rows below `minimumSessions` after, by sessions.
    /// - Parameters:
    ///   - minimumSessions: the fewest sessions a path needs to be ranked.
    ///   - baseline: the older release's rates, to mark regressions.
    /// - Returns: a row for every path.
    public func rows(minimumSessions: Double, baseline: PathRates? = nil) -> [Row] {
        let releaseRate = releaseInterval.rate
        let rows = paths.map { path, counts -> Row in
            let interval = counts.interval
            // Ranked by the sessions its interval stands on: sampled sessions count for less than they stand for.
            let ranked = counts.effectiveSessions >= minimumSessions
            var regression: Bool?
            if let baseline {
                // Regressions are of transitions (SPEC section 20).
                let before = baseline.paths[path]?.interval
                regression = path.kind == .transition && ranked && (before.map { interval.low > $0.high } ?? false)
            }
            return Row(
                path: path, sessions: counts.sessions, crashed: counts.crashed, interval: interval,
                lift: releaseRate > 0 ? interval.rate / releaseRate : 0, ranked: ranked, regression: regression,
                scaled: counts.sampledTrails > 0 && counts.cleanSessions != Double(counts.sampledTrails))
        }
        return rows.sorted { lhs, rhs in
            if lhs.ranked != rhs.ranked { return lhs.ranked }
            if lhs.ranked {
                if lhs.interval.low != rhs.interval.low { return lhs.interval.low > rhs.interval.low }
                if lhs.interval.rate != rhs.interval.rate { return lhs.interval.rate > rhs.interval.rate }
            }
            if lhs.sessions != rhs.sessions { return lhs.sessions > rhs.sessions }
            return lhs.path < rhs.path
        }
    }
}
