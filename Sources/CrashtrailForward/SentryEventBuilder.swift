import CrashtrailCore
import CrashtrailStore
import Crypto
import Foundation

/// A stored report as the Sentry event an upstream receives (SPEC section 17).
///
/// A Sentry event goes as it came, with additions only. A report of another format is converted: the exception with
/// its mechanism (signal and Mach exception), the crashed thread's frames as a stacktrace (function, image,
/// instruction address, and file and line where symbolicated), `debug_meta` images, the app, OS and device contexts,
/// the time, and `release` as `BUNDLE@VERSION+BUILD`. Then crashtrail's additions: the trail's steps as navigation
/// breadcrumbs merged by time with the event's own, `contexts.crashtrail`, the tags `crashtrail.screen` and
/// `crashtrail.group`, and with `grouping`, crashtrail's signature as the fingerprint.
package struct SentryEventBuilder: Sendable {
    /// Whether the event's fingerprint is crashtrail's signature (`--forward-grouping`).
    package var grouping: Bool

    package init(grouping: Bool) {
        self.grouping = grouping
    }

    /// The event ID a report is sent under: a UUID's 32 hex digits, a SHA-256's first 32, else the first 32 of the
    /// SHA-256 of the ID (an `ID~HASH`, or an ID of another shape), so a report keeps its ID wherever it is sent.
    package static func eventID(of reportID: String) -> String {
        let hex = reportID.lowercased().filter { $0 != "-" }
        if hex.count >= 32, hex.allSatisfy(\.isHexDigit) { return String(hex.prefix(32)) }
        return SHA256.hash(data: Data(reportID.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The event of `report`: `original` (a Sentry event's JSON object) with the additions, or the report converted.
    /// - Returns: the event's JSON.
    package func event(of report: CrashReport, original: [String: Any]?, enrichment: ForwardEnrichment) -> [UInt8] {
        var event = original ?? convert(report)
        event["event_id"] = Self.eventID(of: report.id)
        add(enrichment, to: &event)
        let data = (try? JSONSerialization.data(withJSONObject: event, options: [.withoutEscapingSlashes])) ?? Data("{}".utf8)
        return [UInt8](data)
    }

    // MARK: - Conversion

    func convert(_ report: CrashReport) -> [String: Any] {
        var event: [String: Any] = ["platform": "cocoa", "level": "fatal", "logger": "crashtrail"]
        // No time: the upstream takes the time it received the event.
        if let seconds = report.time.flatMap(Self.seconds) { event["timestamp"] = seconds }
        if let bundle = report.app.bundleID {
            event["release"] =
                bundle + (report.app.version.map { "@\($0)" } ?? "")
                + (report.app.version != nil ? report.app.build.map { "+\($0)" } ?? "" : "")
            if let build = report.app.build { event["dist"] = build }
        }
        var contexts: [String: Any] = [:]
        var os: [String: Any] = [:]
        if let name = report.os.name { os["name"] = name }
        if let version = report.os.version { os["version"] = version }
        if !os.isEmpty { contexts["os"] = os }
        if let device = report.device { contexts["device"] = ["model": device] }
        var app: [String: Any] = [:]
        if let bundle = report.app.bundleID { app["app_identifier"] = bundle }
        if let version = report.app.version { app["app_version"] = version }
        if let build = report.app.build { app["app_build"] = build }
        if !app.isEmpty { contexts["app"] = app }
        event["contexts"] = contexts
        event["exception"] = ["values": [exception(of: report)]]
        let images: [[String: Any]] = report.binaryImages.compactMap { image in
            guard let uuid = image.uuid, let load = image.loadAddress else { return nil }
            return ["type": "macho", "debug_id": uuid.lowercased(), "code_file": image.name, "image_addr": Self.hex(load)]
        }
        if !images.isEmpty { event["debug_meta"] = ["images": images] }
        return event
    }

    private func exception(of report: CrashReport) -> [String: Any] {
        let info = report.exception
        var exception: [String: Any] = [:]
        exception["type"] = info.language?.name ?? info.type ?? info.mach ?? info.signal ?? "crash"
        if let value = info.language?.reason ?? info.reason
            ?? [info.signal, info.code].compactMap({ $0 }).joined(separator: " ").nilIfEmpty
        {
            exception["value"] = value
        }
        var mechanism: [String: Any] = ["handled": false]
        mechanism["type"] =
            info.language != nil ? "nsexception" : (info.mach != nil || info.type?.hasPrefix("EXC_") == true) ? "mach" : "signal"
        var meta: [String: Any] = [:]
        if let signal = info.signal, let number = Self.signals[signal] { meta["signal"] = ["number": number, "name": signal] }
        let mach = info.mach ?? (info.type?.hasPrefix("EXC_") == true ? info.type : nil)
        if let mach, let number = Self.machExceptions[mach] {
            let codes = Self.codes(info.code)
            meta["mach_exception"] = ["exception": number, "code": codes.0, "subcode": codes.1, "name": mach]
        }
        if !meta.isEmpty { mechanism["meta"] = meta }
        exception["mechanism"] = mechanism
        let loads = Dictionary(
            report.binaryImages.compactMap { image in image.loadAddress.map { (image.name, $0) } }, uniquingKeysWith: { a, _ in a })
        // Sentry lists frames oldest first: the crashed thread's top frame is the last.
        let frames: [[String: Any]] = report.frames.reversed().map { frame in
            var out: [String: Any] = ["in_app": frame.inApp]
            out["function"] = frame.symbol ?? "<unknown>"
            if let raw = frame.rawSymbol { out["symbol"] = raw }
            if let image = frame.image { out["package"] = image }
            if let offset = frame.offset, let image = frame.image, let load = loads[image] {
                out["instruction_addr"] = Self.hex(load &+ UInt64(max(0, offset)))
            }
            if let file = frame.file {
                out["filename"] = (file as NSString).lastPathComponent
                out["abs_path"] = file
            }
            if let line = frame.line { out["lineno"] = line }
            return out
        }
        if !frames.isEmpty { exception["stacktrace"] = ["frames": frames] }
        if let thread = report.crashedThread { exception["thread_id"] = thread }
        return exception
    }

    // MARK: - Additions

    private func add(_ enrichment: ForwardEnrichment, to event: inout [String: Any]) {
        // Breadcrumbs: the event's own (an object with "values", or a bare array) and the trail's, by time.
        var crumbs: [[String: Any]] =
            ((event["breadcrumbs"] as? [String: Any])?["values"] as? [[String: Any]]) ?? (event["breadcrumbs"] as? [[String: Any]]) ?? []
        crumbs += enrichment.crumbs.map { crumb in
            var data: [String: Any] = ["to": crumb.to, "op": crumb.op]
            if let from = crumb.from { data["from"] = from }
            if let url = crumb.url { data["url"] = url }
            return [
                "type": "navigation", "category": "navigation", "timestamp": crumb.time,
                "message": "\(crumb.op) \(crumb.to)", "data": data,
            ]
        }
        let ordered = crumbs.enumerated().sorted { lhs, rhs in
            let left = Self.seconds(lhs.element["timestamp"]) ?? 0
            let right = Self.seconds(rhs.element["timestamp"]) ?? 0
            return left != right ? left < right : lhs.offset < rhs.offset
        }
        if !ordered.isEmpty { event["breadcrumbs"] = ["values": ordered.map(\.element)] }

        var contexts = event["contexts"] as? [String: Any] ?? [:]
        var context: [String: Any] = [
            "type": "crashtrail", "source": enrichment.source, "steps": enrichment.steps, "crashScreens": enrichment.crashScreens,
            "links": enrichment.links, "group": enrichment.group,
        ]
        if let replay = enrichment.replayURL { context["replay"] = replay }
        contexts["crashtrail"] = context
        event["contexts"] = contexts

        var tags: [String: Any] = [:]
        if let object = event["tags"] as? [String: Any] {
            tags = object
        } else if let pairs = event["tags"] as? [[Any]] {
            for pair in pairs where pair.count == 2 { if let key = pair[0] as? String { tags[key] = pair[1] } }
        }
        tags["crashtrail.group"] = enrichment.group
        if let screen = enrichment.crashScreens.last { tags["crashtrail.screen"] = screen }
        event["tags"] = tags
        if grouping { event["fingerprint"] = [enrichment.signature] }
    }

    // MARK: - Values

    /// Seconds since 1970 of a Sentry timestamp: a number, or an RFC 3339 text.
    static func seconds(_ value: Any?) -> Double? {
        if let number = value as? NSNumber { return number.doubleValue }
        if let text = value as? String { return seconds(text) }
        return nil
    }

    /// Seconds since 1970 of an RFC 3339 time.
    static func seconds(_ text: String) -> Double? {
        guard let milliseconds = Timestamp.milliseconds(parsing: text) else { return nil }
        return Double(milliseconds) / 1000
    }

    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// The first two numbers of an exception code (`0x1, 0x10`, `KERN_INVALID_ADDRESS at 0x10`), 0 where none.
    static func codes(_ text: String?) -> (UInt64, UInt64) {
        let numbers = (text ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { part -> UInt64? in
            part.hasPrefix("0x") ? UInt64(part.dropFirst(2), radix: 16) : UInt64(part)
        }
        return (numbers.first ?? 0, numbers.dropFirst().first ?? 0)
    }

    /// Darwin's signal numbers.
    static let signals: [String: Int] = [
        "SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3, "SIGILL": 4, "SIGTRAP": 5, "SIGABRT": 6, "SIGEMT": 7, "SIGFPE": 8, "SIGKILL": 9,
        "SIGBUS": 10, "SIGSEGV": 11, "SIGSYS": 12, "SIGPIPE": 13, "SIGALRM": 14, "SIGTERM": 15,
    ]

    /// Mach exception types' numbers (`<mach/exception_types.h>`).
    static let machExceptions: [String: Int] = [
        "EXC_BAD_ACCESS": 1, "EXC_BAD_INSTRUCTION": 2, "EXC_ARITHMETIC": 3, "EXC_EMULATION": 4, "EXC_SOFTWARE": 5,
        "EXC_BREAKPOINT": 6, "EXC_SYSCALL": 7, "EXC_MACH_SYSCALL": 8, "EXC_RPC_ALERT": 9, "EXC_CRASH": 10, "EXC_RESOURCE": 11,
        "EXC_GUARD": 12, "EXC_CORPSE_NOTIFY": 13,
    ]
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
