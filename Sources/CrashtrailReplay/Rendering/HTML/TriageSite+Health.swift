/// The health page (SPEC section 20): crash-free sessions per release as a chart, and the riskiest transitions.
extension TriageSite {
    /// What the health page shows.
    package struct Health: Sendable {
        /// One release's crash-free rates.
        package struct Release: Sendable, Hashable {
            package var name: String
            package var sessions: Int64
            package var crashed: Int64
            package var abnormal: Int64
            /// Percentages; nil without sessions or users.
            package var crashFreeSessions: Double?
            package var crashFreeUsers: Double?
            package var users: Int64

            package init(
                name: String, sessions: Int64, crashed: Int64, abnormal: Int64, crashFreeSessions: Double?, crashFreeUsers: Double?,
                users: Int64
            ) {
                self.name = name
                self.sessions = sessions
                self.crashed = crashed
                self.abnormal = abnormal
                self.crashFreeSessions = crashFreeSessions
                self.crashFreeUsers = crashFreeUsers
                self.users = users
            }
        }

        /// One risky transition, as its row reads.
        package struct Risk: Sendable, Hashable {
            package var path: String
            package var sessions: String
            package var crashed: Int64
            package var rate: String
            package var interval: String
            package var lift: String
            package var regression: Bool

            package init(path: String, sessions: String, crashed: Int64, rate: String, interval: String, lift: String, regression: Bool) {
                self.path = path
                self.sessions = sessions
                self.crashed = crashed
                self.rate = rate
                self.interval = interval
                self.lift = lift
                self.regression = regression
            }
        }

        /// The releases, oldest first.
        package var releases: [Release]
        /// The riskiest transitions of ``riskRelease``, riskiest first.
        package var risks: [Risk]
        /// The release the transitions are of, if any has paths counted.
        package var riskRelease: String?
        /// The older release compared with, for regressions.
        package var riskBaseline: String?
        /// The fewest sessions a ranked transition has.
        package var minimumSessions: String

        package init(releases: [Release], risks: [Risk], riskRelease: String?, riskBaseline: String?, minimumSessions: String) {
            self.releases = releases
            self.risks = risks
            self.riskRelease = riskRelease
            self.riskBaseline = riskBaseline
            self.minimumSessions = minimumSessions
        }
    }

    /// The transition a group's crashes go through far more often than sessions that did not crash.
    package struct OverRepresented: Sendable, Hashable {
        /// `A → B`.
        package var transition: String
        /// The share of the group's crashes with a trail that went through it, in percent.
        package var crashShare: Double
        /// The share of sessions that did not crash that went through it, in percent.
        package var sessionShare: Double
        /// crashShare over sessionShare.
        package var lift: Double

        package init(transition: String, crashShare: Double, sessionShare: Double, lift: Double) {
            self.transition = transition
            self.crashShare = crashShare
            self.sessionShare = sessionShare
            self.lift = lift
        }
    }

    /// The health page.
    package func healthPage(_ health: Health) -> String {
        let releases: [[String: Any]] = health.releases.map { release in
            [
                "name": release.name, "sessions": release.sessions, "crashed": release.crashed, "abnormal": release.abnormal,
                "crashFree": release.crashFreeSessions.map { Self.percent($0) } ?? "-",
                "crashFreeUsers": release.crashFreeUsers.map { "\(Self.percent($0)) of \(release.users)" } ?? "-",
            ]
        }
        let risks: [[String: Any]] = health.risks.map { risk in
            [
                "path": risk.path, "sessions": risk.sessions, "crashed": risk.crashed, "rate": risk.rate, "interval": risk.interval,
                "lift": risk.lift, "regression": risk.regression,
            ]
        }
        return PageTemplates.render(
            "health",
            [
                "title": "Release health", "up": "index.html", "releases": releases, "hasReleases": !releases.isEmpty,
                "chart": Self.crashFreeChart(health.releases), "risks": risks, "hasRisks": !risks.isEmpty,
                "riskRelease": health.riskRelease ?? "", "hasRiskRelease": health.riskRelease != nil,
                "riskBaseline": health.riskBaseline ?? "", "hasBaseline": health.riskBaseline != nil,
                "minimumSessions": health.minimumSessions, "source": source,
            ])
    }

    /// A percentage with two decimals, `99.75%`: crash-free rates differ in their decimals.
    static func percent(_ value: Double) -> String {
        let hundredths = Int64((value * 100).rounded())
        let fraction = abs(hundredths % 100)
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)%"
    }

    /// The crash-free sessions of each release as a line over the releases (oldest left), on an axis from just below
    /// the lowest rate to 100 %.
    static func crashFreeChart(_ releases: [Health.Release]) -> [String: Any] {
        let points = releases.compactMap { release in release.crashFreeSessions.map { (release.name, $0) } }
        let width = 640.0
        let height = 220.0
        // Room at both sides for the first and last release's label, centred under its point.
        let left = 92.0
        let right = 72.0
        let top = 12.0
        let bottom = 48.0
        let lowest = points.map(\.1).min() ?? 100
        // The axis starts at a whole percent below the lowest rate, so differences of a tenth of a percent show.
        let floor = max(0, (lowest - 0.5).rounded(.down))
        let span = max(0.5, 100 - floor)
        let step = points.count > 1 ? (width - left - right) / Double(points.count - 1) : 0
        func x(_ index: Int) -> Double { points.count > 1 ? left + Double(index) * step : (left + width - right) / 2 }
        func y(_ value: Double) -> Double { top + (100 - value) / span * (height - top - bottom) }
        let marks: [[String: Any]] = points.enumerated().map { index, point in
            [
                "x": HTMLReplayRenderer.format2(x(index)), "y": HTMLReplayRenderer.format2(y(point.1)), "name": point.0,
                "value": Self.percent(point.1), "lx": HTMLReplayRenderer.format2(x(index)),
                "ly": HTMLReplayRenderer.format2(height - bottom + 16),
                "label": point.0.count > 18 ? "…" + String(point.0.suffix(17)) : point.0,
            ]
        }
        let ticks: [[String: Any]] = [floor, floor + span / 2, 100].map { value in
            [
                "y": HTMLReplayRenderer.format2(y(value)), "ty": HTMLReplayRenderer.format2(y(value) + 4),
                "text": Self.percent(value),
            ]
        }
        return [
            "width": HTMLReplayRenderer.format2(width), "height": HTMLReplayRenderer.format2(height),
            "line": points.indices.map { "\(HTMLReplayRenderer.format2(x($0))),\(HTMLReplayRenderer.format2(y(points[$0].1)))" }
                .joined(separator: " "),
            "marks": marks, "ticks": ticks, "left": HTMLReplayRenderer.format2(left),
            "right": HTMLReplayRenderer.format2(width - right),
            "label": "Crash-free sessions per release: "
                + points.map { "\($0.0) \(Self.percent($0.1))" }.joined(separator: ", "),
        ]
    }
}
