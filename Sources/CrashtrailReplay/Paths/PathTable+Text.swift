extension PathTable {
    /// The table for people: count, share and the screens, oldest first, joined by `›`.
    /// - Parameter title: what the table is of (`group 3f2a…` or `all reports`).
    /// - Returns: the title line, the column heads and a line per row.
    public func text(title: String) -> String {
        let reports = reportsWithTrail == 1 ? "1 report" : "\(reportsWithTrail) reports"
        let screens = last == 1 ? "the last screen" : "the last \(last) screens"
        var lines = ["Paths to the crash, \(title): \(screens) of \(reports) with a trail"]
        if inferred > 0 {
            lines.append(
                "  \(inferred) of the \(inferred == 1 ? "path was" : "paths were") inferred from the crash reporter's breadcrumbs (marked *)"
            )
        }
        guard !rows.isEmpty else {
            lines.append("  No report with a trail could be replayed.")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("  COUNT  SHARE  SCREENS (oldest first, ending at the crash)")
        for row in rows {
            let count = String(row.count)
            let share = "\(row.share)%"
            lines.append(
                "  " + String(repeating: " ", count: max(0, 5 - count.count)) + count + "  "
                    + String(repeating: " ", count: max(0, 5 - share.count)) + share + "  " + row.screens.joined(separator: " › ")
                    + (row.inferred == 0 ? "" : row.inferred == row.count ? " *" : " (\(row.inferred) *)"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
