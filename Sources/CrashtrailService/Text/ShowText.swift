import CrashtrailCore
import CrashtrailReplay
import CrashtrailReports
import CrashtrailStore
import Foundation

/// The text and JSON of `crashtrail show`: one report with the last steps of its trail, or one crash group.
package enum ShowText {
    /// `show GROUP --format json`: the group's `list` fields, `byVersion` and `byDay` (objects of counts), `reports`
    /// (its newest, as `list --reports` writes them) and `moreReports` (how many of its reports `reports` leaves out).
    package static func jsonValue(of detail: CrashGroupDetail) -> JSONValue {
        guard case .object(var object) = detail.group.jsonValue else { return detail.group.jsonValue }
        object["byVersion"] = .object(
            Dictionary(uniqueKeysWithValues: detail.byVersion.map { ($0.version, JSONValue.int(Int64($0.count))) }))
        object["byDay"] = .object(Dictionary(uniqueKeysWithValues: detail.byDay.map { ($0.day, JSONValue.int(Int64($0.count))) }))
        object["reports"] = .array(detail.reports.map(ListingText.jsonValue(ofReport:)))
        object["moreReports"] = .int(Int64(detail.moreReports))
        return .object(object)
    }

    /// A group for people: its counts by version and day, and its reports.
    package static func text(of detail: CrashGroupDetail) -> String {
        let group = detail.group
        func reports(_ count: Int) -> String { counted(count, "report") }
        var lines = [
            TextTable.pad("Group", 11) + group.id,
            TextTable.pad("Signature", 11) + group.signature,
            TextTable.pad("Reports", 11) + "\(reports(group.count)), \(group.withTrail) with a trail"
                + (group.inferred > 0 ? " (\(group.inferred) inferred from breadcrumbs)" : ""),
        ]
        if let first = group.firstSeen, let last = group.lastSeen { lines.append(TextTable.pad("Seen", 11) + "\(first) to \(last)") }
        lines.append("By app version:")
        for (version, count) in detail.byVersion { lines.append("  " + TextTable.pad(version, 16) + reports(count)) }
        lines.append("By day (UTC):")
        for (day, count) in detail.byDay { lines.append("  " + TextTable.pad(day, 16) + reports(count)) }
        lines.append("Reports, newest first:")
        lines.append(ListingText.text(ofReports: detail.reports).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        if detail.moreReports > 0 {
            lines.append("  … \(reports(detail.moreReports)) more: crashtrail list --group \(group.id) --reports")
        }
        lines.append("Paths that lead here: crashtrail paths \(group.id) --manifest <manifest.yml>")
        return lines.joined(separator: "\n")
    }

    /// Up to 12 frames, one a line: index, image, symbol, its file and line, and the offset into the image.
    ///
    /// The file and line are a debug file's; the offset is said as such (Apple's `symbol + n` means an offset into the
    /// symbol). A function inlined
    /// into the frame below it shares that frame's index and is marked `[inlined]`, as Apple's renderings list them.
    static func frameLines(_ frames: [StackFrame]) -> [String] {
        var lines = StackFrame.numbered(frames.prefix(12)).map { index, frame in
            let location = frame.sourceLocation.map { " (\($0))" } ?? ""
            return "  " + TextTable.pad(String(index), 3) + TextTable.pad(frame.image ?? "?", 24) + (frame.symbol ?? "???") + location
                + (frame.inlined ? " [inlined]" : "") + (frame.offset.map { "  (image offset \($0))" } ?? "")
        }
        if frames.count > 12 { lines.append("  … \(frames.count - 12) more") }
        return lines
    }

    /// A report for people, with the last `lastSteps` steps of its trail.
    package static func text(of report: CrashReport, trail: Trail?, lastSteps: Int, debugFiles: Set<String>? = nil) -> String {
        var lines: [String] = []
        func add(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            lines.append(TextTable.pad(label, 11) + value)
        }
        add("Report", report.id)
        add("Format", report.format.rawValue)
        let app = [report.app.bundleID, report.app.version, report.app.build.map { "(\($0))" }].compactMap { $0 }
        add("App", app.joined(separator: " "))
        add("OS", [report.os.name, report.os.version].compactMap { $0 }.joined(separator: " "))
        add("Device", report.device)
        add("Time", report.time)
        // An uncaught exception is named on its own line; the Exception line says the abort it ended in.
        let language = report.exception.language
        let kind = language == nil ? report.exception.type : report.exception.mach
        let exception = [kind, report.exception.signal, report.exception.code.map { "code \($0)" }].compactMap { $0 }
        add("Exception", exception.joined(separator: " "))
        if let language {
            add("Uncaught", language.name)
            add("Reason", language.reason)
        } else {
            add("Reason", report.exception.reason)
        }
        add("Signature", report.signature)
        let thread = report.crashedThread.map { "thread \($0)" } ?? "crashed thread"
        if report.frames.isEmpty {
            lines.append("Frames     none recorded")
        } else {
            lines.append("Frames (\(thread), top first):")
            lines += frameLines(report.frames)
        }
        if !report.exceptionBacktrace.isEmpty {
            lines.append("Exception backtrace (where the uncaught exception was thrown, top first; the signature names these):")
            lines += frameLines(report.exceptionBacktrace)
        }
        if !report.binaryImages.isEmpty {
            lines.append("Binary images the frames name:")
            let appImages = Set((report.frames + report.exceptionBacktrace).compactMap { $0.inApp ? $0.image : nil })
            for image in report.binaryImages {
                // Whether a debug file named its frames: said for the app's own images, which the app's dSYMs describe.
                var status = ""
                if let debugFiles, appImages.contains(image.name) {
                    status =
                        image.uuid.map {
                            debugFiles.contains($0) ? "  debug file stored" : "  no debug file: crashtrail symbols add its dSYM"
                        } ?? ""
                }
                lines.append(
                    "  " + TextTable.pad(image.name, 24) + TextTable.pad(image.uuid ?? "no UUID", 38)
                        + (image.loadAddress.map { "loaded at 0x" + String($0, radix: 16) } ?? "") + status)
            }
        }
        var trailLine = report.trailInfo.source.rawValue
        if let steps = report.trailInfo.steps { trailLine += ", \(counted(steps, "step"))" }
        if let error = report.trailInfo.error { trailLine += ": \(error)" }
        add("Trail", trailLine)
        if let trail {
            lines.append("Last destinations before the crash (oldest first):")
            let shown = trail.steps.suffix(lastSteps)
            if shown.isEmpty { lines.append("  (no steps)") }
            for (offset, step) in shown.enumerated() {
                let index = trail.steps.count - shown.count + offset
                lines.append("  " + TextTable.pad("#\(index)", 6) + TextTable.pad("\(step.t) ms", 11) + describe(step.op))
            }
            if let final = trail.final {
                lines.append("Screens at the crash, as the app recorded them:")
                lines += ReplayRenderer.screens(of: final).split(separator: "\n").dropFirst().map(String.init)
            } else {
                lines.append("The app recorded no screens at the crash; replay shows the screens the steps lead to.")
            }
            lines.append("Replay it: crashtrail replay \(report.id)  (with the manifest the store keeps, or --manifest M)")
        }
        return lines.joined(separator: "\n")
    }

    /// A step in words: `push {"item":{"id":"L-42"}}`, `select tab 1`.
    static func describe(_ op: Step.Operation) -> String {
        switch op {
        case .push(let destination): "push \(destination.canonicalJSON)"
        case .present(let destination): "present \(destination.canonicalJSON)"
        case .open(.destination(let destination)): "open \(destination.canonicalJSON)"
        case .open(.url(let url)): "open \(url)"
        case .pop: "pop"
        case .popToRoot: "popToRoot"
        case .dismiss: "dismiss"
        case .select(let tab): "select tab \(tab)"
        case .complete(let success): "complete \(success ? "success" : "failure")"
        case .satisfy(let condition): "satisfy \(condition)"
        case .revoke(let condition): "revoke \(condition)"
        }
    }
}
