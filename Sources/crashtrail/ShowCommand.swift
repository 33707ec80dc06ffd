import ArgumentParser
import CrashtrailCollector
import CrashtrailCore
import CrashtrailReplay
import Foundation

/// `crashtrail show ID`
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one stored crash report and the last screens of its trail, or one crash group.",
        discussion: """
            ID is a report ID or a crash group ID (from `crashtrail list`), or any prefix that only one of them \
            has, letters in any case. A whole report ID always means the report; a prefix that starts both a \
            report ID and a group ID is refused, naming both, so give more of it. An ambiguous prefix lists the \
            candidates. A group shows its counts by app version and by day and its reports. Examples:

              crashtrail show 4d1f
              crashtrail show 4d1fe12f9eee --format json
              crashtrail show ab8bd8a8
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "A report ID or a crash group ID, or a prefix only one of them has.")
    var id: String

    @Option(name: .long, help: "The output format: text or json.")
    var format: OutputFormat = .text

    @Option(name: .long, help: "How many of the trail's last steps the text shows.")
    var lastSteps = 8

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        do {
            let store = try storeOptions.open()
            if let detail = try Self.group(id, in: store) {
                switch format {
                case .json: print(CanonicalJSON.string(of: Self.jsonValue(of: detail)))
                case .text: print(Self.text(of: detail))
                }
                return
            }
            let record = try store.record(matchingPrefix: id)
            let report = record.report
            switch format {
            case .json: print(CanonicalJSON.string(of: report.jsonValue))
            case .text: print(Self.text(of: report, trail: try record.decodedTrail(), lastSteps: lastSteps))
            }
        } catch {
            printFailure(error)
            throw ExitCode.failure
        }
    }

    /// The group `id` names, or nil when it names a report or nothing (the report lookup then says which).
    /// - Throws: `StoreError` (`ambiguous`) when `id` is a prefix of both a group ID and a report ID.
    static func group(_ id: String, in store: ReportStore) throws(StoreError) -> CrashGroupDetail? {
        if try store.record(id: id) != nil { return nil }
        let detail: CrashGroupDetail
        do {
            detail = try store.groupDetail(matchingPrefix: id)
        } catch let error where error.code == .notFound {
            return nil
        }
        let report: ReportRecord?
        do {
            report = try store.record(matchingPrefix: id)
        } catch let error where error.code == .notFound {
            report = nil
        } catch let error where error.code == .ambiguous {
            throw StoreError(
                .ambiguous, "\"\(id)\" starts the group ID \(detail.group.id) and several report IDs; give more of the ID",
                candidates: [detail.group.id] + error.candidates)
        }
        if let report {
            throw StoreError(
                .ambiguous, "\"\(id)\" starts both the group ID \(detail.group.id) and the report ID \(report.id); give more of the ID",
                candidates: [detail.group.id, report.id])
        }
        return detail
    }

    /// `show GROUP --format json`: the group's `list` fields, `byVersion` and `byDay` (objects of counts) and
    /// `reports` (as `list --reports` writes them).
    static func jsonValue(of detail: CrashGroupDetail) -> JSONValue {
        guard case .object(var object) = detail.group.jsonValue else { return detail.group.jsonValue }
        object["byVersion"] = .object(Dictionary(uniqueKeysWithValues: detail.byVersion.map { ($0.version, JSONValue.int(Int64($0.count))) }))
        object["byDay"] = .object(Dictionary(uniqueKeysWithValues: detail.byDay.map { ($0.day, JSONValue.int(Int64($0.count))) }))
        object["reports"] = .array(detail.reports.map(ListCommand.jsonValue(ofReport:)))
        return .object(object)
    }

    static func text(of detail: CrashGroupDetail) -> String {
        let group = detail.group
        func reports(_ count: Int) -> String { count == 1 ? "1 report" : "\(count) reports" }
        var lines = [
            ListCommand.pad("Group", 11) + group.id,
            ListCommand.pad("Signature", 11) + group.signature,
            ListCommand.pad("Reports", 11) + "\(reports(group.count)), \(group.withTrail) with a trail",
        ]
        if let first = group.firstSeen, let last = group.lastSeen { lines.append(ListCommand.pad("Seen", 11) + "\(first) to \(last)") }
        lines.append("By app version:")
        for (version, count) in detail.byVersion { lines.append("  " + ListCommand.pad(version, 16) + reports(count)) }
        lines.append("By day (UTC):")
        for (day, count) in detail.byDay { lines.append("  " + ListCommand.pad(day, 16) + reports(count)) }
        lines.append("Reports, newest first:")
        lines.append(ListCommand.text(ofReports: detail.reports).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        lines.append("Paths that lead here: crashtrail paths \(group.id) --manifest <manifest.yml>")
        return lines.joined(separator: "\n")
    }

    static func text(of report: CrashReport, trail: Trail?, lastSteps: Int) -> String {
        var lines: [String] = []
        func add(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            lines.append(ListCommand.pad(label, 11) + value)
        }
        add("Report", report.id)
        add("Format", report.format.rawValue)
        let app = [report.app.bundleID, report.app.version, report.app.build.map { "(\($0))" }].compactMap { $0 }
        add("App", app.joined(separator: " "))
        add("OS", [report.os.name, report.os.version].compactMap { $0 }.joined(separator: " "))
        add("Device", report.device)
        add("Time", report.time)
        let exception = [report.exception.type, report.exception.signal, report.exception.code.map { "code \($0)" }]
            .compactMap { $0 }
        add("Exception", exception.joined(separator: " "))
        add("Reason", report.exception.reason)
        add("Signature", report.signature)
        if report.frames.isEmpty {
            lines.append("Frames     none recorded")
        } else {
            lines.append("Frames (crashed thread, top first):")
            for (index, frame) in report.frames.prefix(12).enumerated() {
                let offset = frame.offset.map { " + \($0)" } ?? ""
                lines.append(
                    "  " + ListCommand.pad(String(index), 3) + ListCommand.pad(frame.image ?? "?", 24)
                        + (frame.symbol ?? "???") + offset)
            }
            if report.frames.count > 12 { lines.append("  … \(report.frames.count - 12) more") }
        }
        var trailLine = report.trailInfo.source.rawValue
        if let steps = report.trailInfo.steps { trailLine += ", \(steps) steps" }
        if let error = report.trailInfo.error { trailLine += ": \(error)" }
        add("Trail", trailLine)
        if let trail {
            lines.append("Last destinations before the crash (oldest first):")
            let shown = trail.steps.suffix(lastSteps)
            if shown.isEmpty { lines.append("  (no steps)") }
            for (offset, step) in shown.enumerated() {
                let index = trail.steps.count - shown.count + offset
                lines.append("  " + ListCommand.pad("#\(index)", 6) + ListCommand.pad("\(step.t) ms", 11) + describe(step.op))
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
