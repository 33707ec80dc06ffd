/// The replay page's repeated parts, written straight into a string with the pages' escaper: one timeline marker
/// and one table row per step.
///
/// See `PageTemplates` for why these two are not rendered by the template engine.
enum HTMLRows {
    private static func escaped(_ text: String, into out: inout String) {
        out += ScalarHTMLContentType.escape(text)
    }

    /// A step's marker on the time axis.
    ///
    /// `<circle class="step[ anomaly]" cx=… cy="45" r=…><title>#i time op destination</title></circle>`
    static func marker(for step: ReplayedStep, x: String, into out: inout String) {
        let anomaly = !step.anomalies.isEmpty
        out += anomaly ? "<circle class=\"step anomaly\" cx=\"" : "<circle class=\"step\" cx=\""
        out += x
        out += anomaly ? "\" cy=\"45\" r=\"7\"><title>" : "\" cy=\"45\" r=\"5\"><title>"
        let what = step.to?.shortText ?? step.argument ?? ""
        var label = "#\(step.index) \(TimeText.format(milliseconds: step.t)) \(step.op)"
        if !what.isEmpty { label += " " + what }
        if anomaly { label += " (" + step.anomalies.map(\.rawValue).joined(separator: ", ") + ")" }
        escaped(label, into: &out)
        out += "</title></circle>"
    }

    /// One row of the step table: number, time, op, destination (with a redacted badge), URL, depth, anomalies.
    static func row(for step: ReplayedStep, into out: inout String) {
        out += step.anomalies.isEmpty ? "<tr><td class=\"num\">" : "<tr class=\"anomaly\"><td class=\"num\">"
        out += String(step.index)
        out += "</td><td class=\"mono\">"
        out += TimeText.format(milliseconds: step.t)
        out += "</td><td>"
        escaped(step.op, into: &out)
        out += "</td><td class=\"mono\">"
        escaped(step.to?.shortText ?? step.argument ?? (step.op == "open" ? "(no destination)" : ""), into: &out)
        if step.redacted { out += " <span class=\"badge\">redacted</span>" }
        out += "</td><td class=\"mono\">"
        escaped(step.url ?? "", into: &out)
        out += "</td><td class=\"num\">"
        out += String(step.depth)
        out += "</td><td class=\"bad\">"
        escaped(step.anomalies.map(\.rawValue).joined(separator: ", "), into: &out)
        out += "</td></tr>\n"
    }
}
