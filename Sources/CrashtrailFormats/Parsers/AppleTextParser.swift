import CrashtrailCore
import CrashtrailReports
import Foundation

/// Reads an Apple text crash report: the legacy format Xcode and devices write, PLCrashReporter's text, and the body
/// of an `.ips` whose `bug_type` is `109` (a JSON header line over the text).
///
/// The report is `Key: value` lines (`Incident Identifier:`, `Process: NAME [PID]`, `Identifier:`, `Version: 3.1.0
/// (412)`, `Launch Time:`, `Date/Time:`, `OS Version:`, `Hardware Model:`, `Exception Type: EXC_BAD_ACCESS (SIGSEGV)`,
/// `Exception Codes:`, `Termination Reason:`), then each thread's frames under `Thread N Crashed:` or `Thread N:`,
/// then `Binary Images:`. A frame line is `INDEX IMAGE ADDRESS SYMBOL + OFFSET` or, unsymbolicated,
/// `INDEX IMAGE ADDRESS LOAD_ADDRESS + OFFSET`.
enum AppleTextParser {
    /// Parses a text report, or an `.ips` whose JSON header line (``IPSHeader``) sits over a text body.
    /// - Throws: `RejectionError` when the header is not JSON or the text is not a crash report.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, context: ParseContext) throws(RejectionError) -> ParsedPayload {
        let start = bytes.firstIndex { !JSONBytes.isWhitespace($0) } ?? bytes.startIndex
        guard start < bytes.endIndex, bytes[start] == UInt8(ascii: "{") else { return try parse(bytes, header: nil) }
        let (header, end) = try IPSHeader.read(bytes, context: context)
        return try parse(bytes[end...], header: header)
    }

    /// Parses an Apple text crash report.
    ///
    /// - Parameters:
    ///   - bytes: the report's text.
    ///   - header: the `.ips` header, for a `bug_type` 109 report (ID and bundle where the text lacks them).
    /// - Returns: the parsed payload.
    /// - Throws: `RejectionError` (`invalid-payload`) when the text is not UTF-8 or has no `Exception Type:` line.
    static func parse(_ bytes: some Collection<UInt8>, header: IPSHeader? = nil) throws(RejectionError) -> ParsedPayload {
        guard let text = String(validating: Array(bytes), as: UTF8.self) else {
            throw RejectionError(.invalidReport, "the Apple text crash report is not UTF-8 text")
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), line.first?.isWhitespace == false else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.count <= 40, fields[key] == nil else { continue }
            fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard let exceptionType = fields["Exception Type"] else {
            throw RejectionError(
                .invalidReport, "an Apple text crash report needs an \"Exception Type:\" line, and this one has none; it may be truncated")
        }
        var parsed = ParsedPayload(format: .appleText, payloadID: fields["Incident Identifier"] ?? header?.incident_id)
        let (process, pid) = processAndPID(fields["Process"])
        let (version, build) = versionAndBuild(fields["Version"])
        parsed.app = CrashReport.App(
            bundleID: fields["Identifier"] ?? header?.bundleID, version: version ?? header?.app_version,
            build: build ?? header?.build_version)
        parsed.os = CrashReport.OS.parsing(fields["OS Version"] ?? header?.os_version)
        parsed.device = fields["Hardware Model"]
        parsed.time = Timestamp.normalized(fields["Date/Time"] ?? header?.timestamp)
        parsed.pid = pid
        parsed.launchTime = fields["Launch Time"].flatMap(Timestamp.milliseconds(parsing:))
        parsed.exception = exception(
            exceptionType, codes: fields["Exception Codes"], subtype: fields["Exception Subtype"], reason: fields["Termination Reason"])
        languageException(in: lines, into: &parsed.exception)

        let images = binaryImages(lines)
        let triggered = fields["Triggered by Thread"] ?? fields["Crashed Thread"]
        let crashed = crashedThreadFrames(lines, triggered: triggered)
        parsed.crashedThread = crashedThreadIndex(lines, triggered: triggered)
        parsed.frames = stackFrames(crashed, images: images, process: process)
        let thrown = exceptionBacktraceFrames(lines)
        parsed.exceptionFrames = stackFrames(thrown, images: images, process: process)
        // The images the frames name (a report lists hundreds); KSCrash's Apple-format filter gives a frame's image load
        // address on the frame line, with or without a Binary Images list.
        var named: Set<String> = []
        for frame in crashed + thrown where frame.image != "???" && named.insert(frame.image).inserted {
            if let image = images[frame.image] {
                parsed.binaryImages.append(BinaryImage(name: frame.image, uuid: image.uuid, loadAddress: image.base))
            } else if let load = frame.loadAddress {
                parsed.binaryImages.append(BinaryImage(name: frame.image, loadAddress: load))
            }
        }
        return parsed
    }

    /// The normalized frames of frame lines: image offsets from the binary images, and whether each is the app's.
    static func stackFrames(_ lines: [Frame], images: [String: Image], process: String?) -> [StackFrame] {
        lines.map { frame in
            // `???` names no image: the frame is nobody's code, and is named by its address alone.
            guard frame.image != "???" else { return StackFrame(image: nil, symbol: frame.symbol, offset: nil, inApp: false) }
            let image = images[frame.image]
            var offset: Int64?
            if let base = frame.loadAddress ?? image?.base, frame.address >= base { offset = Int64(clamping: frame.address - base) }
            return StackFrame(
                image: frame.image, symbol: frame.symbol, offset: offset,
                inApp: frame.image == process || !SystemImages.isSystem(name: frame.image, path: image?.path))
        }
    }

    /// `PirateBay [4242]` as the name and the pid.
    static func processAndPID(_ text: String?) -> (String?, Int64?) {
        guard let text else { return (nil, nil) }
        guard let open = text.lastIndex(of: "["), let close = text.lastIndex(of: "]"), open < close else { return (text, nil) }
        let name = text[..<open].trimmingCharacters(in: .whitespaces)
        return (name.isEmpty ? nil : name, Int64(text[text.index(after: open)..<close].trimmingCharacters(in: .whitespaces)))
    }

    /// `3.1.0 (412)` as the version and the build.
    ///
    /// Apple writes `???` for a value it does not know: unknown is nil, not a version.
    static func versionAndBuild(_ text: String?) -> (String?, String?) {
        func known(_ value: String) -> String? { value.isEmpty || value == "???" ? nil : value }
        guard let text, !text.isEmpty else { return (nil, nil) }
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close else { return (known(text), nil) }
        let version = text[..<open].trimmingCharacters(in: .whitespaces)
        return (known(version), known(String(text[text.index(after: open)..<close])))
    }

    /// The uncaught language exception the report names, which is the crash rather than the abort it caused.
    ///
    /// It is the `*** Terminating app due to uncaught exception 'NAME', reason: 'REASON'` line Apple and KSCrash write under
    /// `Application Specific Information:`, so the text groups with the reporter's JSON, which names the exception.
    /// KSCrash writes a main-thread deadlock as `Exception Type: 0 (0)` over `Application main thread deadlocked`,
    /// which reads as its JSON's `deadlock`.
    static func languageException(in lines: [Substring], into exception: inout ExceptionInfo) {
        // An uncaught exception ends in an abort; under another crash (KSCrash's zombie exception, "This exception has
        // been deallocated!") the line only describes what the crash touched.
        let aborted = exception.signal == "SIGABRT" || exception.type == "EXC_CRASH" || exception.type == nil
        for line in lines.prefix(200) {
            if aborted, let range = line.firstRange(of: "uncaught exception '"),
                let end = line[range.upperBound...].firstIndex(of: "'"), range.upperBound < end
            {
                // Apple's type stays when the report names one (SPEC section 8): the language exception is `language`.
                if exception.type == nil { exception.type = String(line[range.upperBound..<end]) }
                if let reason = line[end...].firstRange(of: "reason: '") {
                    let text = line[reason.upperBound...]
                    exception.reason = String(text.hasSuffix("'") ? text.dropLast() : text)
                }
                exception.language = ExceptionInfo.Language(name: String(line[range.upperBound..<end]), reason: exception.reason)
                return
            }
            if line.trimmingCharacters(in: .whitespaces) == "Application main thread deadlocked",
                exception.type == nil || exception.type == "0"
            {
                exception.type = "deadlock"
                if exception.signal == "0" { exception.signal = nil }
                return
            }
        }
    }

    /// `EXC_BAD_ACCESS (SIGSEGV)`, or PLCrashReporter's bare `SIGSEGV`.
    static func exception(_ type: String, codes: String?, subtype: String?, reason: String?) -> ExceptionInfo {
        var name = type
        var signal: String?
        if let open = type.firstIndex(of: "("), let close = type.lastIndex(of: ")"), open < close {
            name = type[..<open].trimmingCharacters(in: .whitespaces)
            signal = String(type[type.index(after: open)..<close]).trimmingCharacters(in: .whitespaces)
        }
        if name.hasPrefix("SIG"), signal == nil { signal = name }
        return ExceptionInfo(
            type: name.isEmpty ? nil : name, code: codes ?? subtype, signal: signal, reason: reason ?? subtype,
            mach: name.hasPrefix("EXC_") ? name : nil)
    }
}
