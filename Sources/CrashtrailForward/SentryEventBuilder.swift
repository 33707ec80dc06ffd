import CrashtrailCore
import CrashtrailReports
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

    /// The members of an original event the builder reads (the event ID, to find the event in its envelope): an
    /// original event needs no others parsed, and they go as the bytes that wrote them
    /// (``EventJSON/parse(_:readingMembers:)``).
    package static let readMembers: Set<String> = ["event_id", "breadcrumbs", "contexts", "tags"]

    /// The event ID a report is sent under: a UUID's 32 hex digits, a SHA-256's first 32, else the first 32 of the
    /// SHA-256 of the ID (an `ID~HASH`, or an ID of another shape), so a report keeps its ID wherever it is sent.
    package static func eventID(of reportID: String) -> String {
        let hex = reportID.lowercased().filter { $0 != "-" }
        if hex.count >= 32, hex.allSatisfy(\.isHexDigit) { return String(hex.prefix(32)) }
        return Hex.lowercase(SHA256.hash(data: Data(reportID.utf8)).prefix(16))
    }

    /// The event of `report`: `original` (a Sentry event's JSON object) with the additions, or the report converted.
    /// - Returns: the event's JSON.
    package func event(of report: CrashReport, original: EventObject?, enrichment: ForwardEnrichment) -> [UInt8] {
        var event = original ?? convert(report)
        event["event_id"] = .string(Self.eventID(of: report.id))
        add(enrichment, to: &event)
        return EventJSON.object(event).bytes
    }

    // MARK: - Conversion

    func convert(_ report: CrashReport) -> EventObject {
        var event = EventObject([("platform", .string("cocoa")), ("level", .string("fatal")), ("logger", .string("crashtrail"))])
        // No time: the upstream takes the time it received the event.
        if let seconds = report.time.flatMap(Self.seconds) { event["timestamp"] = .double(seconds) }
        if let bundle = report.app.bundleID {
            let version = report.app.version.map { "@\($0)" + (report.app.build.map { "+\($0)" } ?? "") } ?? ""
            event["release"] = .string(bundle + version)
            if let build = report.app.build { event["dist"] = .string(build) }
        }
        var contexts = EventObject()
        var os = EventObject()
        if let name = report.os.name { os["name"] = .string(name) }
        if let version = report.os.version { os["version"] = .string(version) }
        if !os.keys.isEmpty { contexts["os"] = .object(os) }
        if let device = report.device { contexts["device"] = .object(EventObject([("model", .string(device))])) }
        var app = EventObject()
        if let bundle = report.app.bundleID { app["app_identifier"] = .string(bundle) }
        if let version = report.app.version { app["app_version"] = .string(version) }
        if let build = report.app.build { app["app_build"] = .string(build) }
        if !app.keys.isEmpty { contexts["app"] = .object(app) }
        event["contexts"] = .object(contexts)
        event["exception"] = .object(EventObject([("values", .array([.object(exception(of: report))]))]))
        let images: [EventJSON] = report.binaryImages.compactMap { image in
            guard let uuid = image.uuid, let load = image.loadAddress else { return nil }
            return .object(
                EventObject([
                    ("type", .string("macho")), ("debug_id", .string(uuid.lowercased())), ("code_file", .string(image.name)),
                    ("image_addr", .string(Self.hex(load))),
                ]))
        }
        if !images.isEmpty { event["debug_meta"] = .object(EventObject([("images", .array(images))])) }
        return event
    }

    private func exception(of report: CrashReport) -> EventObject {
        let info = report.exception
        var exception = EventObject()
        exception["type"] = .string(info.language?.name ?? info.type ?? info.mach ?? info.signal ?? "crash")
        let value = info.language?.reason ?? info.reason ?? [info.signal, info.code].compactMap { $0 }.joined(separator: " ")
        if !value.isEmpty { exception["value"] = .string(value) }
        let mach = info.mach ?? (info.type?.hasPrefix("EXC_") == true ? info.type : nil)
        var mechanism = EventObject([
            ("type", .string(info.language != nil ? "nsexception" : mach != nil ? "mach" : "signal")), ("handled", .bool(false)),
        ])
        var meta = EventObject()
        if let signal = info.signal, let number = Self.signals[signal] {
            meta["signal"] = .object(EventObject([("number", .int(number)), ("name", .string(signal))]))
        }
        if let mach, let number = Self.machExceptions[mach] {
            let codes = Self.codes(info.code)
            meta["mach_exception"] = .object(
                EventObject([
                    ("exception", .int(number)), ("code", .number(String(codes.0))), ("subcode", .number(String(codes.1))),
                    ("name", .string(mach)),
                ]))
        }
        if !meta.keys.isEmpty { mechanism["meta"] = .object(meta) }
        exception["mechanism"] = .object(mechanism)
        var loads: [String: UInt64] = [:]
        for image in report.binaryImages { if let load = image.loadAddress, loads[image.name] == nil { loads[image.name] = load } }
        // Sentry lists frames oldest first: the crashed thread's top frame is the last.
        let frames: [EventJSON] = report.frames.reversed().map { frame in
            var out = EventObject([("function", .string(frame.symbol ?? "<unknown>")), ("in_app", .bool(frame.inApp))])
            if let raw = frame.rawSymbol { out["symbol"] = .string(raw) }
            if let image = frame.image { out["package"] = .string(image) }
            if let offset = frame.offset, let image = frame.image, let load = loads[image] {
                out["instruction_addr"] = .string(Self.hex(load &+ UInt64(max(0, offset))))
            }
            if let file = frame.file {
                out["filename"] = .string(String(file.split(separator: "/").last ?? Substring(file)))
                out["abs_path"] = .string(file)
            }
            if let line = frame.line { out["lineno"] = .int(line) }
            return .object(out)
        }
        if !frames.isEmpty { exception["stacktrace"] = .object(EventObject([("frames", .array(frames))])) }
        if let thread = report.crashedThread { exception["thread_id"] = .int(thread) }
        return exception
    }

    // MARK: - Additions

    private func add(_ enrichment: ForwardEnrichment, to event: inout EventObject) {
        // Breadcrumbs: the event's own (an object with "values", or a bare array) and the trail's, by time.
        var crumbs = event["breadcrumbs"]?.object?["values"]?.array ?? event["breadcrumbs"]?.array ?? []
        crumbs += enrichment.crumbs.map { crumb in
            var data = EventObject([
                ("from", crumb.from.map(EventJSON.string) ?? .null), ("to", .string(crumb.to)), ("op", .string(crumb.op)),
            ])
            if crumb.from == nil { data["from"] = nil }
            if let url = crumb.url { data["url"] = .string(url) }
            return .object(
                EventObject([
                    ("type", .string("navigation")), ("category", .string("navigation")), ("timestamp", .double(crumb.time)),
                    ("message", .string("\(crumb.op) → \(crumb.to)")), ("data", .object(data)),
                ]))
        }
        let ordered = crumbs.enumerated().map { ($0.offset, $0.element, Self.seconds(of: $0.element.object?["timestamp"]) ?? 0) }
            .sorted { $0.2 != $1.2 ? $0.2 < $1.2 : $0.0 < $1.0 }
        if !ordered.isEmpty { event["breadcrumbs"] = .object(EventObject([("values", .array(ordered.map(\.1)))])) }

        var contexts = event["contexts"]?.object ?? EventObject()
        var context = EventObject([
            ("type", .string("crashtrail")), ("source", .string(enrichment.source.rawValue)), ("steps", .int(enrichment.steps)),
            ("crashScreens", .array(enrichment.crashScreens.map(EventJSON.string))),
            ("links", .array(enrichment.links.map(EventJSON.string))),
            ("group", .string(enrichment.group)),
        ])
        if let replay = enrichment.replayURL { context["replay"] = .string(replay) }
        contexts["crashtrail"] = .object(context)
        event["contexts"] = .object(contexts)

        // Tags: an object, or Sentry's older list of pairs.
        var tags = EventObject()
        if let object = event["tags"]?.object {
            tags = object
        } else if let pairs = event["tags"]?.array {
            for pair in pairs { if let pair = pair.array, pair.count == 2, let key = pair[0].string { tags[key] = pair[1] } }
        }
        tags["crashtrail.group"] = .string(enrichment.group)
        if let screen = enrichment.crashScreens.last { tags["crashtrail.screen"] = .string(screen) }
        event["tags"] = .object(tags)
        if grouping { event["fingerprint"] = .array([.string(enrichment.signature)]) }
    }

    // MARK: - Values

    /// Seconds since 1970 of a Sentry timestamp: a number, or an RFC 3339 text.
    static func seconds(of value: EventJSON?) -> Double? {
        switch value {
        case .number(let text)?: Double(text)
        case .string(let text)?: seconds(text)
        default: nil
        }
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
