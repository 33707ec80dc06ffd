import CrashtrailCore

extension PathTable {
    /// The table for people: count, share and the screens, oldest first, joined by `›`.
    /// - Parameter title: what the table is of (`group 3f2a…` or `all reports`).
    /// - Returns: the title line, the column heads and a line per row.
    package func text(title: String) -> String {
        let reports = counted(reportsWithTrail, "report")
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
        // A large group has tens of thousands of rows: they are written as UTF-8 into one buffer, with no string of
        // their own, and made a string once.
        var text = Array((lines.joined(separator: "\n") + "\n").utf8)
        text.reserveCapacity(text.count + rows.count * 64)
        for row in rows {
            text.append(contentsOf: "  ".utf8)
            Self.appendRightAligned(row.count, suffix: "", width: 5, to: &text)
            text.append(contentsOf: "  ".utf8)
            Self.appendRightAligned(row.share, suffix: "%", width: 5, to: &text)
            text.append(contentsOf: "  ".utf8)
            for (index, screen) in row.screens.enumerated() {
                if index > 0 { text.append(contentsOf: " › ".utf8) }
                text.append(contentsOf: screen.utf8)
            }
            if row.inferred > 0 { text.append(contentsOf: (row.inferred == row.count ? " *" : " (\(row.inferred) *)").utf8) }
            text.append(UInt8(ascii: "\n"))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `value` and `suffix` to `text`, after as many spaces as make them `width` characters wide.
    private static func appendRightAligned(_ value: Int, suffix: StaticString, width: Int, to text: inout [UInt8]) {
        let start = text.count
        CanonicalJSON.writeInt(Int64(value), into: &text)
        suffix.withUTF8Buffer { text.append(contentsOf: $0) }
        let length = text.count - start
        if length < width { text.insert(contentsOf: repeatElement(UInt8(ascii: " "), count: width - length), at: start) }
    }
}
