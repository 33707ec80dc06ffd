import CrashtrailCore
import CrashtrailReports
import Foundation

/// A number in a JSON answer: canonical JSON holds only integers, so decimals are written here, with a fixed number of
/// places (`99.50`) or as the shortest text of up to `places` decimals (`0.0125`).
enum DecimalText {
    /// `value` with exactly `places` decimals.
    static func fixed(_ value: Double, places: Int) -> String {
        let scale = (0..<places).reduce(1.0) { value, _ in value * 10 }
        // Counts come from clients: a value no Int64 holds is written as a whole number, never trapped on.
        guard value.isFinite, abs(value * scale) < 9e15 else { return value.isFinite ? String(format: "%.0f", value) : "0" }
        let scaled = Int64((value * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = abs(scaled % Int64(scale))
        guard places > 0 else { return String(whole) }
        let digits = String(fraction)
        return (scaled < 0 && whole == 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: places - digits.count) + digits
    }

    /// `value` with up to `places` decimals, trailing zeros (and a bare point) dropped.
    static func short(_ value: Double, places: Int) -> String {
        var text = fixed(value, places: places)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A JSON object of `fields`, keys sorted as canonical JSON sorts them; each value is JSON text already.
    static func object(_ fields: [(String, String)]) -> String {
        "{"
            + fields.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map { key, value in
                CanonicalJSON.string(of: .string(key)) + ":" + value
            }.joined(separator: ",") + "}"
    }
}

extension HealthReport {
    /// The JSON of `health --format json` (SPEC section 20): an array, one object a release, with exactly `release`,
    /// `sessions`, `crashed`, `abnormal`, `errored`, `crashFreeSessions`, `crashFreeUsers` (percentages with two
    /// decimals; null without sessions or users) and `users`.
    package var json: String {
        "["
            + releases.map { row in
                DecimalText.object([
                    ("release", CanonicalJSON.string(of: .string(row.release))), ("sessions", String(row.sessions)),
                    ("crashed", String(row.crashed)), ("abnormal", String(row.abnormal)), ("errored", String(row.errored)),
                    ("crashFreeSessions", row.crashFreeSessions.map { DecimalText.fixed($0, places: 2) } ?? "null"),
                    ("crashFreeUsers", row.crashFreeUsers.map { DecimalText.fixed($0, places: 2) } ?? "null"),
                    ("users", String(row.users)),
                ])
            }.joined(separator: ",") + "]"
    }

    /// The table for people.
    package var text: String {
        guard !releases.isEmpty else {
            return "No sessions counted\(project.map { " for project \($0.name)" } ?? ""). serve counts the session items "
                + "Sentry's SDKs send (enable release health, and name the release as BUNDLE@VERSION+BUILD).\n"
        }
        func percent(_ value: Double?, _ part: Int64, _ whole: Int64) -> String {
            value.map { "\(DecimalText.fixed($0, places: 2)) % (\(whole - min(part, whole))/\(whole))" } ?? "-"
        }
        let rows = releases.map { row in
            [
                row.release, String(row.sessions), percent(row.crashFreeSessions, row.crashed, row.sessions),
                percent(row.crashFreeUsers, row.crashedUsers, row.users), String(row.crashed), String(row.abnormal), String(row.errored),
            ]
        }
        return TextTable.render(
            header: ["RELEASE", "SESSIONS", "CRASH-FREE SESSIONS", "CRASH-FREE USERS", "CRASHED", "ABNORMAL", "ERRORED"], rows: rows)
            + "\n\nUsers are distinct device IDs, estimated within about 1.6 % (a HyperLogLog sketch; exact below a few dozen).\n"
    }
}

extension PathRateReport {
    /// The JSON of `paths --rate --format json` (SPEC section 20): an array with exactly `kind`, `screens`, `sessions`,
    /// `crashed`, `rate`, `low`, `high` (fractions), `lift`, and `regression` with two releases.
    package var json: String {
        "["
            + rows.map { row in
                var fields: [(String, String)] = [
                    ("kind", CanonicalJSON.string(of: .string(row.path.kind.rawValue))),
                    ("screens", CanonicalJSON.string(of: .array(row.path.screens.map(JSONValue.string)))),
                    ("sessions", DecimalText.short(row.sessions, places: 2)), ("crashed", String(row.crashed)),
                    ("rate", DecimalText.short(row.interval.rate, places: 6)), ("low", DecimalText.short(row.interval.low, places: 6)),
                    ("high", DecimalText.short(row.interval.high, places: 6)), ("lift", DecimalText.short(row.lift, places: 3)),
                ]
                if let regression = row.regression { fields.append(("regression", regression ? "true" : "false")) }
                return DecimalText.object(fields)
            }.joined(separator: ",") + "]"
    }

    /// The table for people: the ranked rows, riskiest first, then how many were too few to rank.
    package func text(limit: Int) -> String {
        let releaseRate = releaseInterval
        var lines = [
            "Release \(release)\(baseline.map { " (compared with \($0))" } ?? ""): \(DecimalText.short(total.sessions, places: 1)) sessions "
                + "with trails, \(total.crashed) crashed, rate \(Self.percent(releaseRate.rate)) "
                + "(95 % \(Self.percent(releaseRate.low))–\(Self.percent(releaseRate.high)))",
            "",
        ]
        func cells(_ row: PathRates.Row) -> [String] {
            [
                row.path.kind.rawValue, row.path.description, DecimalText.short(row.sessions, places: 1), String(row.crashed),
                Self.percent(row.interval.rate), "\(Self.percent(row.interval.low))–\(Self.percent(row.interval.high))",
                DecimalText.fixed(row.lift, places: 2) + "x", row.regression == true ? "REGRESSION" : "",
            ]
        }
        let header = ["KIND", "PATH", "SESSIONS", "CRASHED", "RATE", "95 % INTERVAL", "LIFT", ""]
        let ranked = rows.filter(\.ranked)
        let minimum = DecimalText.short(minimumSessions, places: 1)
        if ranked.isEmpty {
            lines.append(
                "No path has \(minimum) sessions or more (--min-sessions), a sampled session counting as the sessions its interval stands on."
            )
        } else {
            lines.append(TextTable.render(header: header, rows: ranked.prefix(limit).map(cells)))
        }
        if ranked.count > limit { lines.append("… \(ranked.count - limit) more ranked paths (--format json lists every one)") }
        // The others are shown with their intervals, not ranked: too few sessions to say.
        let unranked = rows.filter { !$0.ranked }
        if !unranked.isEmpty {
            lines += ["", "Not ranked, fewer than \(minimum) sessions (their rates are too uncertain to rank), most sessions first:"]
            lines.append(TextTable.render(header: header, rows: unranked.prefix(limit).map(cells)))
            if unranked.count > limit { lines.append("… \(unranked.count - limit) more (--format json lists every one)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A fraction as a percentage with up to two decimals: `1.25 %`.
    static func percent(_ fraction: Double) -> String { DecimalText.short(100 * fraction, places: 2) + " %" }
}
