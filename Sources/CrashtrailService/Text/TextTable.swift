/// Column helpers for the text the commands print.
enum TextTable {
    /// The width the text tables fit.
    static let width = 100

    /// An RFC 3339 time to the minute (`2026-11-02 08:31`), or `-`.
    static func minutes(_ time: String?) -> String {
        guard let time, time.count >= 16 else { return time ?? "-" }
        return time.prefix(10) + " " + time.dropFirst(11).prefix(5)
    }

    /// `text` in a column of `width` characters: cut with an ellipsis when longer (leaving a space), padded unless
    /// it is the last column.
    static func fit(_ text: String, _ width: Int, padded: Bool = true) -> String {
        let room = padded ? width - 1 : width
        let cut = text.count > room ? String(text.prefix(max(0, room - 1))) + "…" : text
        return padded ? cut + String(repeating: " ", count: max(0, width - cut.count)) : cut
    }

    /// `text` padded to `width`, or followed by one space when it fills it.
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

extension TextTable {
    /// A table whose columns are as wide as their widest cell, a header line first.
    static func render(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in index == cells.count - 1 ? cell : pad(cell, widths[index] + 2) }.joined()
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}
