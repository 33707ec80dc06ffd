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
        // A large group has tens of thousands of rows: each is appended to one text, with no string of its own.
        var text = lines.joined(separator: "\n") + "\n"
        text.reserveCapacity(text.utf8.count + rows.count * 64)
        for row in rows {
            text.append("  ")
            Self.appendRightAligned(String(row.count), width: 5, to: &text)
            text.append("  ")
            Self.appendRightAligned("\(row.share)%", width: 5, to: &text)
            text.append("  ")
            for (index, screen) in row.screens.enumerated() {
                if index > 0 { text.append(" › ") }
                text.append(screen)
            }
            if row.inferred > 0 { text.append(row.inferred == row.count ? " *" : " (\(row.inferred) *)") }
            text.append("\n")
        }
        return text
    }

    /// Appends `value` to `text`, after as many spaces as make it `width` characters wide.
    private static func appendRightAligned(_ value: String, width: Int, to text: inout String) {
        for _ in 0..<max(0, width - value.count) { text.append(" ") }
        text.append(value)
    }
}
