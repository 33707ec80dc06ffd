import CrashtrailReports
import CrashtrailStore
import CrashtrailTestSupport

/// Seeded payloads of every format, shaped like the parsers' `Decodable` views.
///
/// They hold everything that varies in the wild: fields missing or of the wrong type, unknown fields holding any JSON, keys repeated or written
/// with escapes, numbers in every JSON form (fractions, exponents, beyond 64 bits), strings with escapes,
/// surrogate pairs and non-ASCII text, and now and then a value Swift cannot take (a lone surrogate escape,
/// invalid UTF-8). Every payload is valid JSON syntax, so both decoders must agree on it exactly.
struct GeneratedPayloads {
    /// The shape of a field, as a parser reads it.
    indirect enum Shape: Sendable {
        case string
        case hex
        case int
        case bool
        /// A `LooseScalar`: any scalar.
        case scalar
        case object([(String, Shape)])
        case array(Shape, maximum: Int)
        /// Sentry's `{"values": [...]}`, or the bare array.
        case values(Shape)
        /// An embedded trail: text, split keys, an object, or anything else.
        case trail
        /// One of a few strings.
        case oneOf([String])
    }

    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    // MARK: - Formats

    static let sentryFrame = Shape.object([
        ("function", .string), ("symbol", .string), ("package", .string), ("module", .string), ("instruction_addr", .hex),
        ("image_addr", .hex), ("in_app", .bool),
    ])
    static let sentryStacktrace = Shape.object([("frames", .array(sentryFrame, maximum: 12))])
    static let named = Shape.object([("name", .string)])
    static let sentryEvent = Shape.object([
        ("event_id", .oneOf(["9ec79c33ec9942ab8353589fcb2e04dc", "9EC79C33-EC99-42AB-8353-589FCB2E04DC", "not-an-id"])),
        ("timestamp", .scalar), ("release", .oneOf(["com.example.app@3.1.0+412", "com.example.app@3.1.0", "3.1.0"])),
        ("dist", .string),
        (
            "exception",
            .values(
                .object([
                    ("type", .string), ("value", .string),
                    ("mechanism", .object([("type", .string), ("meta", .object([("signal", named), ("mach_exception", named)]))])),
                    ("stacktrace", sentryStacktrace), ("thread_id", .scalar),
                ]))
        ),
        ("threads", .values(.object([("id", .scalar), ("crashed", .bool), ("stacktrace", sentryStacktrace)]))),
        (
            "contexts",
            .object([
                ("app", .object([("app_identifier", .string), ("app_version", .string), ("app_build", .string)])),
                ("os", .object([("name", .string), ("version", .string)])), ("device", .object([("model", .string)])),
                ("crashtrail", .object([("trail", .trail)])),
            ])
        ),
        ("extra", .object([("crashtrail", .trail)])),
    ])

    static let ipsHeader = Shape.object([
        ("bug_type", .oneOf(["309", "309", "309", "109"])), ("incident_id", .string), ("app_version", .string),
        ("build_version", .string), ("bundleID", .string), ("os_version", .oneOf(["iPhone OS 17.4 (21A329)", "macOS 12.3.1"])),
        ("timestamp", .oneOf(["2026-11-04 05:44:23.3380 +0100", "2026-11-04 05:44:23.33 +0000", "yesterday"])), ("name", .string),
    ])
    static let ipsFrame = Shape.object([("imageIndex", .int), ("imageOffset", .scalar), ("symbol", .string)])
    static let ipsBody = Shape.object([
        ("incident", .string), ("procLaunch", .oneOf(["2026-11-04 05:04:31.3570 +0100", "later"])),
        ("captureTime", .oneOf(["2026-11-04 05:44:23.3380 +0100", "2026-11-04T05:44:23Z"])), ("pid", .scalar),
        ("modelCode", .string), ("procName", .string),
        ("osVersion", .object([("train", .oneOf(["iPhone OS 17.4", "macOS", "iPhone OS x"])), ("build", .string)])),
        ("bundleInfo", .object([("CFBundleIdentifier", .string), ("CFBundleShortVersionString", .string), ("CFBundleVersion", .string)])),
        ("exception", .object([("type", .string), ("signal", .string), ("codes", .string), ("subtype", .string)])),
        ("termination", .object([("indicator", .string), ("reasons", .array(.string, maximum: 3))])),
        ("threads", .array(.object([("triggered", .bool), ("frames", .array(ipsFrame, maximum: 12))]), maximum: 6)),
        ("usedImages", .array(.object([("name", .string), ("path", .string)]), maximum: 8)),
    ])

    static let kscrash = Shape.object([
        ("report", .object([("id", .string), ("timestamp", .scalar)])),
        (
            "system",
            .object([
                ("CFBundleIdentifier", .string), ("CFBundleShortVersionString", .string), ("CFBundleVersion", .string),
                ("CFBundleExecutable", .string), ("system_name", .string), ("system_version", .string), ("machine", .string),
                ("process_id", .scalar), ("process_name", .string), ("app_start_time", .scalar),
            ])
        ),
        (
            "crash",
            .object([
                (
                    "error",
                    .object([
                        ("type", .oneOf(["mach", "signal", "nsexception", "cpp_exception", "user", "memory_termination"])),
                        ("reason", .string),
                        ("mach", .object([("exception_name", .string), ("code_name", .string), ("code", .scalar)])),
                        ("signal", .object([("name", .string), ("code_name", .string), ("signal", .scalar)])),
                        ("nsexception", .object([("name", .string), ("reason", .string)])),
                        ("cpp_exception", .object([("name", .string), ("reason", .string)])),
                        ("user_reported", .object([("name", .string), ("reason", .string)])),
                        ("memory_termination", .object([("memory_level", .string)])),
                    ])
                ),
                (
                    "threads",
                    .array(
                        .object([
                            ("crashed", .bool),
                            (
                                "backtrace",
                                .object([
                                    (
                                        "contents",
                                        .array(
                                            .object([
                                                ("object_name", .string), ("symbol_name", .string), ("instruction_addr", .scalar),
                                                ("object_addr", .scalar),
                                            ]), maximum: 10)
                                    )
                                ])
                            ),
                        ]), maximum: 5)
                ),
                ("diagnosis", .string),
            ])
        ),
        ("user", .object([("crashtrail", .trail)])),
    ])

    static let crashlyticsFrame = Shape.object([
        ("library", .string), ("symbol", .string), ("offset", .scalar), ("owner", .oneOf(["DEVELOPER", "VENDOR"])), ("blamed", .bool),
    ])
    static let crashlytics = Shape.object([
        ("event_id", .string), ("issue_id", .string), ("issue_title", .string), ("issue_subtitle", .string),
        ("bundle_identifier", .string), ("event_timestamp", .scalar),
        ("device", .object([("model", .string), ("manufacturer", .string)])),
        ("operating_system", .object([("name", .string), ("display_version", .string)])),
        ("application", .object([("display_version", .string), ("build_version", .string)])),
        (
            "custom_keys",
            .array(
                .object([("key", .oneOf(["crashtrail", "crashtrail.0", "crashtrail.1", "screen", "crashtrail.2"])), ("value", .scalar)]),
                maximum: 6)
        ),
        (
            "exceptions",
            .array(
                .object([("type", .string), ("exception_message", .string), ("frames", .array(crashlyticsFrame, maximum: 10))]), maximum: 2)
        ),
        (
            "threads",
            .array(
                .object([
                    ("crashed", .bool), ("signal_name", .string), ("signal_code", .string),
                    ("frames", .array(crashlyticsFrame, maximum: 10)),
                ]),
                maximum: 4)
        ),
    ])

    static let crashtrail = Shape.object([
        ("crashtrail", .oneOf(["1", "1", "1", "1.0", "2", "\"1\""])),
        ("id", .scalar), ("time", .oneOf(["\"2026-11-02T14:45:05Z\"", "\"2026-11-02T14:45:05.250+01:00\"", "\"soon\"", "1730000000"])),
        ("app", .object([("bundleID", .string), ("version", .string), ("build", .string)])),
        ("os", .object([("name", .string), ("version", .string)])), ("device", .scalar),
        ("exception", .object([("type", .string), ("code", .scalar), ("signal", .string), ("reason", .string)])),
        ("frames", .array(.object([("image", .string), ("symbol", .string), ("offset", .scalar), ("inApp", .bool)]), maximum: 10)),
        ("trail", .trail), ("pid", .scalar),
    ])

    /// A MetricKit payload: crash diagnostics with nested frames, and other diagnostics.
    static let metrickitFrame = Shape.object([
        ("binaryName", .string), ("binaryUUID", .hex), ("offsetIntoBinaryTextSegment", .scalar), ("address", .scalar),
        ("sampleCount", .int),
        (
            "subFrames",
            .array(.object([("binaryName", .string), ("address", .scalar), ("offsetIntoBinaryTextSegment", .scalar)]), maximum: 4)
        ),
    ])
    static let metrickit = Shape.object([
        ("timeStampBegin", .oneOf(["\"2020-10-10 04:00:00 +0000\"", "\"yesterday\"", "1602302400"])), ("timeStampEnd", .string),
        (
            "crashDiagnostics",
            .array(
                .object([
                    ("version", .string),
                    (
                        "diagnosticMetaData",
                        .object([
                            ("appVersion", .string), ("appBuildVersion", .string), ("bundleIdentifier", .string), ("osVersion", .string),
                            ("deviceType", .string), ("exceptionType", .scalar), ("exceptionCode", .scalar), ("signal", .scalar),
                            ("terminationReason", .string), ("pid", .scalar),
                        ])
                    ),
                    (
                        "callStackTree",
                        .object([
                            (
                                "callStacks",
                                .array(
                                    .object([("threadAttributed", .bool), ("callStackRootFrames", .array(metrickitFrame, maximum: 2))]),
                                    maximum: 3)
                            )
                        ])
                    ),
                ]), maximum: 3)
        ),
        ("hangDiagnostics", .array(.object([("version", .string)]), maximum: 2)),
    ])

    /// One payload of `format`, as the bytes its parser is given.
    mutating func payload(_ format: ReportFormat) -> [UInt8] {
        switch format {
        case .crashtrail: return value(Self.crashtrail, depth: 0)
        case .sentryEvent: return value(Self.sentryEvent, depth: 0)
        case .kscrash: return value(Self.kscrash, depth: 0)
        case .crashlytics: return value(Self.crashlytics, depth: 0)
        case .metrickit: return value(Self.metrickit, depth: 0)
        case .appleText: return appleText()
        case .ips: return value(Self.ipsHeader, depth: 0) + Array("\n".utf8) + value(Self.ipsBody, depth: 0)
        case .sentryEnvelope:
            var bytes = Array(#"{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","sent_at":"2026-11-03T05:12:12.577Z"}"#.utf8) + [0x0A]
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let event = value(Self.sentryEvent, depth: 0)
                let framed = chance(0.7)
                bytes += Array((framed ? #"{"type":"event","length":\#(event.count)}"# : #"{"type":"event"}"#).utf8) + [0x0A]
                bytes += event + [0x0A]
            }
            if chance(0.5) {
                let attachment = Array(#"{"version":1}"#.utf8)
                bytes += Array(#"{"type":"attachment","filename":"crashtrail.json","length":\#(attachment.count)}"#.utf8) + [0x0A]
                bytes += attachment + [0x0A]
            }
            return bytes
        }
    }

    /// An Apple text crash report with odd values, missing lines and junk frames.
    private mutating func appleText() -> [UInt8] {
        var lines: [String] = []
        func maybe(_ line: String) { if chance(0.85) { lines.append(line) } }
        maybe("Incident Identifier: \(pick(["8461870D-9CC7-FE36-5053-D81AA5040714", "", "x"]))")
        maybe("Hardware Model:      \(pick(["iPhone14,2", "", "é"]))")
        maybe("Process:             \(pick(["PirateBay [4242]", "PirateBay [", "[]", "PirateBay [99999999999999999999]"]))")
        maybe("Identifier:          com.example.piratebay")
        maybe("Version:             \(pick(["3.1.0 (412)", "3.1.0", "(", ")(", ""]))")
        maybe("Date/Time:           \(pick(["2026-11-02 08:06:30.6540 +0000", "soon", ""]))")
        maybe("Launch Time:         \(pick(["2026-11-02 08:05:10.1230 +0000", "9999-99-99"]))")
        maybe("OS Version:          \(pick(["iPhone OS 17.1 (21B80)", "iOS", "("]))")
        maybe("Exception Type:  \(pick(["EXC_BAD_ACCESS (SIGSEGV)", "SIGSEGV", "EXC_CRASH (SIGABRT", "()", ""]))")
        maybe("Exception Codes: KERN_INVALID_ADDRESS at 0x0000000000000010")
        maybe("Triggered by Thread:  \(pick(["0", "1", "x"]))")
        lines.append("")
        lines.append(pick(["Thread 0 Crashed:", "Thread 1:", "Thread 0:"]))
        for index in 0..<Int.random(in: 0...6, using: &random) {
            lines.append(
                pick([
                    "\(index)   PirateBay                     \t0x0000000100f1d2c4 ListingCell.configure(with:) + 1412",
                    "\(index)   libobjc.A.dylib               \t0x0000000180e3c1a0 objc_msgSend + 32",
                    "\(index)   PirateBay                     \t0x0000000100f1e0a8 0x100f00000 + 122024",
                    "\(index)   x 0xZZ + 1", "\(index) 0xffffffffffffffffff y",
                    "\(index)   PirateBay 0x0000000000000001 0xffffffffffffffff + 1",
                ]))
        }
        lines.append("")
        lines.append("Binary Images:")
        lines.append(
            pick([
                "0x100f00000 - 0x10103ffff PirateBay arm64  <a2251f9e14c3b1997337> /private/var/PirateBay.app/PirateBay", "0x - PirateBay",
                "",
            ]))
        return Array(lines.joined(separator: pick(["\n", "\r\n"])).utf8)
    }

    // MARK: - Values

    private mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }

    private mutating func value(_ shape: Shape, depth: Int) -> [UInt8] {
        // A field of another type now and then: the parsers must ignore it as Foundation's decoding does.
        if depth > 0, chance(0.06) { return junk(depth: 2) }
        switch shape {
        case .string: return string()
        case .hex: return Array("\"0x\(String(UInt64.random(in: 0...0xFFFF_FFFF_FFFF, using: &random), radix: 16))\"".utf8)
        case .int: return chance(0.85) ? Array(String(Int.random(in: 0...9, using: &random)).utf8) : number()
        case .bool: return Array((chance(0.5) ? "true" : "false").utf8)
        case .scalar: return scalar()
        case .oneOf(let choices):
            let choice = pick(choices)
            return choice.first == "\"" || Int(choice) != nil || Double(choice) != nil ? Array(choice.utf8) : Array("\"\(choice)\"".utf8)
        case .trail: return trail()
        case .values(let element):
            let array = value(.array(element, maximum: 3), depth: depth + 1)
            return chance(0.7) ? Array(#"{"values":"#.utf8) + array + Array("}".utf8) : array
        case .array(let element, let maximum):
            let count = Int.random(in: 0...maximum, using: &random)
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            for index in 0..<count {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += chance(0.05) ? Array("null".utf8) : value(element, depth: depth + 1)
            }
            return bytes + [UInt8(ascii: "]")]
        case .object(let fields):
            var members: [[UInt8]] = []
            for (name, field) in fields where depth == 0 || chance(0.9) {
                var member = key(name) + [UInt8(ascii: ":")] + value(field, depth: depth + 1)
                if chance(0.03) {
                    // The same key again with another value: the first one wins in both decoders.
                    member += [UInt8(ascii: ",")] + key(name) + [UInt8(ascii: ":")] + junk(depth: 1)
                }
                members.append(member)
            }
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                members.append(string(key: true) + [UInt8(ascii: ":")] + junk(depth: 3))
            }
            members.shuffle(using: &random)
            var bytes: [UInt8] = [UInt8(ascii: "{")]
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += member
            }
            return bytes + [UInt8(ascii: "}")]
        }
    }

    /// A key, now and then written with escapes (`"\u0074ype"` is `"type"`).
    private mutating func key(_ name: String) -> [UInt8] {
        guard chance(0.03), let first = name.unicodeScalars.first else { return Array("\"\(name)\"".utf8) }
        let hex = String(first.value, radix: 16)
        let escaped = "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return Array("\"\(escaped)\(name.dropFirst())\"".utf8)
    }

    private static let words = [
        "anchor", "harbor", "ProfileViewController.viewDidLoad()", "-[UIViewController _sendViewDidLoad]", "é", "日本語", "😀",
        "<deduplicated_symbol>", "???", "/System/Library/Frameworks/UIKit.framework/UIKit", "/usr/lib/libswiftCore.dylib",
        "PirateBay", "libsystem_kernel.dylib", "0x1a2b", "12345", "-7", "1.5", "1e3", "true", "2026-11-02T14:45:05Z",
        "2026-11-04 05:44:23.3380 +0100", "crashtrail.0", "com.example.piratebay", " ", "",
    ]
    private static let escapes = [#"\n"#, #"\t"#, #"\""#, #"\\"#, #"\/"#, #"\u00e9"#, #"\ud83d\ude00"#, #"\u0000"#, #"\b\f\r"#]

    private mutating func string(key: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for index in 0..<Int.random(in: 1...4, using: &random) {
            if index > 0 { bytes.append(UInt8(ascii: " ")) }
            bytes += Array((chance(0.15) ? pick(Self.escapes) : pick(Self.words)).utf8)
        }
        // Values JSON carries but Swift cannot take: refused where read, ignored where not (in both decoders).
        if chance(0.01) { bytes += Array(#"\ud800"#.utf8) }
        if chance(0.01) { bytes.append(0xFF) }
        if key, chance(0.02) { bytes += [0xC3, 0x28] }
        return bytes + [UInt8(ascii: "\"")]
    }

    private mutating func number() -> [UInt8] {
        let forms = [
            String(Int64.random(in: -1_000_000...1_000_000, using: &random)), String(Int64.random(in: .min ... .max, using: &random)),
            "\(Int.random(in: 0...99, using: &random)).\(Int.random(in: 0...999, using: &random))", "1.0", "-0", "-0.0", "0e5", "1e2",
            "1E-2", "2.5e+3", "12345678901234567890", "-9223372036854775808", "9223372036854775807", "9223372036854775808",
            "18446744073709551615", "9007199254740993", "9007199254740993.0", "9007199254740993.5", "1e400", "-1e400", "1e-400",
            "4.9e-324", "1730000000.125", "0.1e1", "100000000000000000000000000000",
        ]
        return Array(pick(forms).utf8)
    }

    private mutating func scalar() -> [UInt8] {
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3: return number()
        case 4...7: return string()
        case 8: return Array((chance(0.5) ? "true" : "false").utf8)
        default: return Array("null".utf8)
        }
    }

    private mutating func trail() -> [UInt8] {
        switch Int.random(in: 0..<8, using: &random) {
        case 0, 3, 4: return Array(#""ct1:AAAAbbbb""#.utf8)
        case 1: return Array(#"{"crashtrail.0":"ct1:AA","crashtrail.1":"BB","other":1}"#.utf8)
        case 2: return Array("null".utf8)
        default: return junk(depth: 3)
        }
    }

    /// Any JSON value, nested up to `depth`.
    private mutating func junk(depth: Int) -> [UInt8] {
        switch Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &random) {
        case 0: return number()
        case 1, 2: return string()
        case 3: return Array((chance(0.5) ? "true" : "false").utf8)
        case 4: return Array("null".utf8)
        case 5:
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            for index in 0..<Int.random(in: 0...3, using: &random) {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += junk(depth: depth - 1)
            }
            return bytes + [UInt8(ascii: "]")]
        default:
            var bytes: [UInt8] = [UInt8(ascii: "{")]
            for index in 0..<Int.random(in: 0...3, using: &random) {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += string(key: true) + [UInt8(ascii: ":")] + junk(depth: depth - 1)
            }
            return bytes + [UInt8(ascii: "}")]
        }
    }
}
