import CrashtrailCore
import CrashtrailReports
import Foundation

/// Writes a normalized report as an Apple text crash report, as Console renders an `.ips`: the header, the exception,
/// the uncaught exception's line and backtrace when there is one, the crashed thread and the binary images.
///
/// The same crash written as JSON and as this text reads back to the same normalized report and the same group
/// (`AppleTextRoundTripTests`). Load addresses and UUIDs are the report's where it keeps them; others are made up (one
/// image every 256 MiB from `0x100000000`, the zero UUID); an app image gets a path in the app's bundle, another a system path, so the reader
/// tells them apart as the payload did.
package enum AppleTextWriter {
    /// The Apple text of `report`.
    package static func text(of report: CrashReport) -> String {
        let all = report.frames + report.exceptionBacktrace
        var images: [(name: String, inApp: Bool)] = []
        for frame in all where frame.image != nil && !images.contains(where: { $0.name == frame.image }) {
            images.append((frame.image ?? "", frame.inApp))
        }
        func known(_ name: String) -> BinaryImage? { report.binaryImages.first { $0.name == name } }
        func base(_ image: String?) -> UInt64? {
            guard let index = images.firstIndex(where: { $0.name == image }) else { return nil }
            return known(images[index].name)?.loadAddress ?? 0x1_0000_0000 + UInt64(index) << 28
        }
        // A symbolicated frame reads `symbol + offset-into-the-function (file:line)`, and a function inlined into the frame
        // below shares its number and ends in `[inlined]`, as Apple's symbolicated reports write them.
        func frameLines(_ frames: [StackFrame]) -> [String] {
            StackFrame.numbered(frames).map { index, frame in
                let image = frame.image ?? "???"
                let load = base(frame.image) ?? 0
                let address = load &+ UInt64(max(0, frame.offset ?? 0))
                var location = frame.symbol.map { "\($0) + \(frame.functionOffset ?? 0)" } ?? "0x\(hex(load)) + \(frame.offset ?? 0)"
                if let source = frame.sourceLocation { location += " (\(source))" }
                if frame.inlined { location += " [inlined]" }
                return pad(String(index), 4) + pad(image, 30) + "0x" + hex(address, width: 16) + " " + location
            }
        }
        let process = images.first { $0.inApp }?.name ?? "App"
        var lines = [
            "Incident Identifier: \(report.id)",
            "Hardware Model:      \(report.device ?? "???")",
            "Process:             \(process) [0]",
            "Identifier:          \(report.app.bundleID ?? "???")",
            "Version:             \(report.app.version ?? "???") (\(report.app.build ?? "???"))",
            "",
            "Date/Time:           \(report.time ?? "")",
            "OS Version:          \([report.os.name, report.os.version].compactMap { $0 }.joined(separator: " "))",
            "",
        ]
        lines += exceptionLines(report.exception)
        if !report.exceptionBacktrace.isEmpty {
            lines += ["", "Last Exception Backtrace:"] + frameLines(report.exceptionBacktrace)
        }
        let thread = report.crashedThread ?? 0
        lines += ["", "Thread \(thread) Crashed::\(thread == 0 ? " Dispatch queue: com.apple.main-thread" : "")"]
        lines += frameLines(report.frames)
        lines += ["", "Binary Images:"]
        for image in images {
            let start = base(image.name) ?? 0
            let uuid = known(image.name)?.uuid?.filter { $0 != "-" } ?? String(repeating: "0", count: 32)
            let path =
                image.inApp
                ? "/private/var/containers/Bundle/Application/00000000/\(process).app/\(image.name)"
                : "/System/Library/Frameworks/\(image.name).framework/\(image.name)"
            lines.append(
                "0x\(hex(start)) - 0x\(hex(start + 0x0FFF_FFFF)) \(image.inApp ? "+" : "")\(image.name) arm64e <\(uuid)> \(path)"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `Exception Type:` and what goes with it: an uncaught language exception as the abort it ends in, with its line
    /// under `Application Specific Information:`; a deadlock as KSCrash writes it.
    package static func exceptionLines(_ exception: ExceptionInfo) -> [String] {
        let head = CrashSignature.canonicalException(type: exception.type, signal: exception.signal)
        let parts = head.split(separator: "/", maxSplits: 1).map(String.init)
        let isMach = parts[0].hasPrefix("EXC_")
        var lines: [String] = []
        if exception.type == "deadlock" {
            return ["Exception Type:  0 (0)", "", "Application main thread deadlocked"]
        }
        if let language = exception.language {
            return [
                "Exception Type:  \(exception.mach ?? "EXC_CRASH") (\(exception.signal ?? "SIGABRT"))",
                "", "Application Specific Information:",
                "*** Terminating app due to uncaught exception '\(language.name)', reason: '\(language.reason ?? "")'",
            ]
        }
        if !isMach, parts[0] != "unknown", exception.type != nil, exception.signal == "SIGABRT" {
            lines.append("Exception Type:  EXC_CRASH (SIGABRT)")
            lines += [
                "", "Application Specific Information:",
                "*** Terminating app due to uncaught exception '\(parts[0])', reason: '\(exception.reason ?? "")'",
            ]
            return lines
        }
        let signal = parts.count > 1 ? parts[1] : nil
        let type = parts[0] == "unknown" ? nil : parts[0]
        switch (type, signal) {
        case (let type?, let signal?): lines.append("Exception Type:  \(type) (\(signal))")
        case (let type?, nil): lines.append("Exception Type:  \(type)")
        case (nil, let signal?): lines.append("Exception Type:  \(signal)")
        case (nil, nil): lines.append("Exception Type:  unknown")
        }
        if let code = exception.code { lines.append("Exception Codes: \(code)") }
        return lines
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private static func hex(_ value: UInt64, width: Int = 0) -> String {
        let digits = String(value, radix: 16)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
