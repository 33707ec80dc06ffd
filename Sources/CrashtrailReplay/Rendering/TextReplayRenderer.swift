import CrashtrailCore

/// The `text` format: the replay for people, in five sections (steps, final screens, verification, links,
/// anomalies), with ANSI colour only when asked.
struct TextReplayRenderer {
    let style: TextStyle

    init(colour: Bool) {
        self.style = TextStyle(colour: colour)
    }

    func render(_ replay: Replay) -> String {
        var lines: [String] = []
        lines += header(replay)
        lines.append("")
        lines += stepTable(replay)
        lines.append("")
        lines += finalScreens(replay.final)
        lines.append("")
        lines += verification(replay)
        lines.append("")
        lines += links(replay.links)
        lines.append("")
        lines += anomalies(replay.anomalies)
        return lines.map { $0 + "\n" }.joined()
    }

    private func header(_ replay: Replay) -> [String] {
        let app = replay.app
        return [
            style.apply(.bold, "Replay of \(replay.report)"),
            "app \(app.bundleID) \(app.version) (\(app.build)), session \(replay.session.id) started \(replay.session.started)",
            "manifest \(Self.fileName(of: replay.manifestSource)); \(replay.steps.count) \(plural(replay.steps.count, "step")) kept, "
                + "\(replay.dropped) dropped before them",
        ]
    }

    private func stepTable(_ replay: Replay) -> [String] {
        var lines = [style.apply(.bold, "Steps")]
        guard !replay.steps.isEmpty else { return lines + ["  (no steps: the final state is the trail's base)"] }
        let header = ["#", "time", "op", "destination", "URL", "depth", "anomaly"]
        let rows = replay.steps.map { step -> [String] in
            [
                String(step.index), TimeText.format(milliseconds: step.t), step.op,
                (step.to?.shortText ?? step.argument ?? (step.op == "open" ? "(no destination)" : ""))
                    + (step.redacted ? " (redacted)" : ""),
                step.url ?? "",
                String(step.depth),
                step.anomalies.map(\.rawValue).joined(separator: ", "),
            ]
        }
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        // Numbers align right, text left; the last column is not padded so lines carry no trailing blanks.
        let rightAligned: Set<Int> = [0, 5]
        func line(_ cells: [String], tone: (Int, String) -> String) -> String {
            var parts: [String] = []
            for (column, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                let isLast = column == cells.count - 1
                let padded = rightAligned.contains(column) ? padding + cell : (isLast ? cell : cell + padding)
                parts.append(tone(column, padded))
            }
            return trimmingTrailingSpaces("  " + parts.joined(separator: "  "))
        }
        lines.append(line(header) { _, cell in style.apply(.dim, cell) })
        for row in rows {
            lines.append(line(row) { column, cell in column == 6 ? style.apply(.yellow, cell) : cell })
        }
        return lines
    }

    func finalScreens(_ state: NavigationState) -> [String] {
        var lines = [style.apply(.bold, "Final screens") + " (each stack bottom to top)"]
        if let tab = state.tab {
            lines.append("  tabs")
            for (index, stack) in state.stacks.enumerated() {
                let selected = index == tab
                let marker = selected ? style.apply(.green, "▶") : " "
                let text = "\(marker) \(index)  \(stackText(stack))"
                lines.append("    " + text + (selected ? "  " + style.apply(.green, "(selected)") : ""))
            }
        } else {
            lines.append("  no tab bar")
            lines.append("      " + (state.stacks.first.map(stackText) ?? ""))
        }
        if state.modals.isEmpty {
            lines.append("  modals: none")
        } else {
            lines.append("  modals (bottom to top)")
            for (index, modal) in state.modals.enumerated() {
                lines.append("      \(index)  \(stackText(modal))")
            }
        }
        let conditions = state.sortedConditions
        lines.append("  conditions: " + (conditions.isEmpty ? "none" : conditions.joined(separator: ", ")))
        if let pending = state.pending {
            lines.append("  pending: \(pending.destination.shortText) (asked by \(pending.mode.rawValue)), waiting for its flow")
        } else {
            lines.append("  pending: none")
        }
        return lines
    }

    private func verification(_ replay: Replay) -> [String] {
        switch replay.verified {
        case true?:
            return [style.apply(.green, "Verified") + ": the replayed final state equals the one the app recorded at the crash."]
        case false?:
            let difference = replay.difference?.description ?? "the states differ"
            return [
                style.apply(.red, "Not verified") + ": the replay differs from the state the app recorded; first difference:",
                "  \(difference)",
            ]
        case nil:
            return ["Not verified: the trail recorded no final state to compare with."]
        }
    }

    private func links(_ links: ShortestLinks) -> [String] {
        let outcome =
            links.reproduces
            ? style.apply(.green, "they reproduce the final screens")
            : style.apply(.red, "they do not reproduce the final screens")
        var lines = [style.apply(.bold, "Shortest links") + " (\(links.links.count)): " + outcome]
        let preconditions = links.preconditions.isEmpty ? "none" : links.preconditions.joined(separator: ", ")
        lines.append("  preconditions: \(preconditions)")
        let width = String(links.links.count).count
        for (index, link) in links.links.enumerated() {
            let number = String(index + 1)
            let padded = String(repeating: " ", count: width - number.count) + number
            lines.append("  \(padded). \(style.apply(.cyan, link.url))" + (link.redacted ? "  (redacted: a stand-in record)" : ""))
        }
        for screen in links.unreproducible {
            lines.append(
                "  cannot link \(screen.location) \(screen.screen.shortText): \(screen.reason.code): \(screen.reason.explanation)")
        }
        if let mismatch = links.mismatch {
            lines.append("  applied from launch they leave \(mismatch)")
        }
        return lines
    }

    private func anomalies(_ anomalies: [NavigationAnomaly]) -> [String] {
        guard !anomalies.isEmpty else { return [style.apply(.bold, "Anomalies") + ": none"] }
        var lines = [style.apply(.bold, "Anomalies") + " (\(anomalies.count))"]
        for anomaly in anomalies {
            lines.append("  step \(anomaly.step)  \(style.apply(.yellow, anomaly.kind.rawValue))  \(anomaly.detail)")
        }
        return lines
    }

    /// The last component of a manifest's source path, so output does not depend on where the files are.
    static func fileName(of source: String) -> String {
        source.split(separator: "/").last.map(String.init) ?? source
    }

    private func stackText(_ stack: [Destination]) -> String {
        stack.map(\.shortText).joined(separator: " › ")
    }

    private func plural(_ count: Int, _ word: String) -> String {
        count == 1 ? word : word + "s"
    }

    private func trimmingTrailingSpaces(_ text: String) -> String {
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }
}
