import ArgumentParser
import CrashtrailCollector
import CrashtrailCore
import Foundation

/// `crashtrail show ID`
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one stored crash report and the last screens of its trail.",
        discussion: """
            ID is a report ID or any prefix of one that only one report has; an ambiguous prefix lists the \
            candidates. Example:

              crashtrail show 4d1f
              crashtrail show 4d1fe12f9eee --format json
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The report ID, or a prefix only one report has.")
    var id: String

    @Option(name: .long, help: "The output format: text or json.")
    var format: OutputFormat = .text

    @Option(name: .long, help: "How many of the trail's last steps the text shows.")
    var lastSteps = 8

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        do {
            let store = try storeOptions.open()
            let record = try store.record(matchingPrefix: id)
            let report = record.report
            switch format {
            case .json: print(CanonicalJSON.string(of: report.jsonValue))
            case .text: print(Self.text(of: report, trail: try record.decodedTrail(), lastSteps: lastSteps))
            }
        } catch let error as StoreError where error.code == .ambiguous {
            printError("Error: \(error.message). The candidates:")
            for candidate in error.candidates { printError("  \(candidate)") }
            throw ExitCode.failure
        } catch {
            printError("Error: \(error)")
            throw ExitCode.failure
        }
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
            if let top = trail.final?.topDestination {
                lines.append("Screen at the crash: \(top.canonicalJSON)")
            }
            lines.append("Replay it: crashtrail replay \(report.id) --manifest <manifest.yml>")
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
