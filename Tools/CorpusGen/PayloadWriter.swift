import CrashtrailCore
import CrashtrailEncoding
import CrashtrailTestSupport
import Foundation

/// Writes a crash case in each of the five formats, with realistic bulk (other threads, images, breadcrumbs)
/// so sizes match real payloads: `.ips` 50–150 KB, Sentry 10–40 KB.
struct PayloadWriter {
    let codec: TrailCodec
    var random: SplitMix64

    /// How the trail rides in a JSON payload.
    enum Embedding {
        case none
        case text
        case object
        case keys
    }

    // MARK: Shared pieces

    static func rfc3339(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// `.ips` local time with an offset: `2026-11-02 15:45:05.1234 +0100`.
    static func ipsTime(_ milliseconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 3600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSSS Z"
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// A stable, build-specific offset for a symbol in its image.
    static func offset(of symbol: String, build: String) -> Int64 {
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in (symbol + build).utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        return Int64(hash % 0x40_0000) & ~3
    }

    /// A UUID string from the seeded generator, so the corpus is the same for the same seed.
    mutating func uuid() -> String {
        let high = random.next()
        let low = random.next()
        let hex = String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
        let characters = Array(hex.uppercased())
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    static let systemImages = [
        "UIKitCore", "CoreFoundation", "Foundation", "libobjc.A.dylib", "libdispatch.dylib", "libsystem_kernel.dylib",
        "libsystem_pthread.dylib", "QuartzCore", "GraphicsServices", "libswiftCore.dylib", "CFNetwork", "SwiftUI",
    ]

    mutating func filler(_ count: Int) -> String {
        let words = ["harbor", "parrot", "doubloon", "galleon", "compass", "lantern", "anchor", "rigging", "bosun", "cutlass"]
        return (0..<count).map { _ in words.randomElement(using: &random) ?? "sea" }.joined(separator: " ")
    }

    func trailText(_ trail: Trail) throws -> String { try codec.encodeText(trail) }

    func embedded(_ trail: Trail?, as embedding: Embedding) throws -> JSONValue? {
        guard let trail else { return nil }
        switch embedding {
        case .none: return nil
        case .text: return .string(try codec.encodeText(trail))
        case .object: return trail.jsonValue
        case .keys: return .object(try codec.encodeKeys(trail).mapValues(JSONValue.string))
        }
    }

    static func json(_ value: JSONValue) -> [UInt8] { CanonicalJSON.bytes(of: value) }

    // MARK: crashtrail

    mutating func crashtrailReport(_ crash: CrashCase, embedding: Embedding) throws -> [UInt8] {
        var object: [String: JSONValue] = [
            "crashtrail": 1, "id": .string(crash.id), "time": .string(Self.rfc3339(crash.crashTime)),
            "app": ["bundleID": .string(crash.bundleID), "version": .string(crash.version), "build": .string(crash.build)],
            "os": ["name": .string(crash.osName), "version": .string(crash.osVersion)], "device": .string(crash.device),
            "exception": [
                "type": .string(crash.kind.exceptionType), "code": .string(crash.kind.code), "signal": .string(crash.kind.signal),
                "reason": crash.kind.reason.map(JSONValue.string) ?? .null,
            ],
            "frames": .array(
                crash.kind.frames.map { frame in
                    [
                        "image": .string(frame.image), "symbol": .string(frame.symbol),
                        "offset": .int(Self.offset(of: frame.symbol, build: crash.build)),
                    ]
                }),
        ]
        if let trail = try embedded(crash.trail, as: embedding) { object["trail"] = trail }
        return Self.json(.object(object))
    }

    // MARK: Sentry

    mutating func sentryEvent(_ crash: CrashCase, embedding: Embedding, inExtra: Bool, breadcrumbs: Int) throws -> [UInt8] {
        let base = 0x1_0000_0000 + crash.slide
        var frames: [JSONValue] = []
        for frame in crash.kind.frames.reversed() {
            let offset = UInt64(Self.offset(of: frame.symbol, build: crash.build))
            let isApp = frame.image == "PirateBay"
            let imageBase = isApp ? base : 0x1_8000_0000 + UInt64(frame.image.utf8.count) * 0x1000000
            frames.append([
                "function": .string(frame.symbol),
                "package": .string(
                    isApp
                        ? "/private/var/containers/Bundle/Application/\(crash.id.prefix(8))/PirateBay.app/PirateBay"
                        : "/System/Library/Frameworks/\(frame.image)"),
                "image_addr": .string("0x" + String(imageBase, radix: 16)),
                "instruction_addr": .string("0x" + String(imageBase + offset, radix: 16)), "in_app": .bool(isApp),
            ])
        }
        var crumbs: [JSONValue] = []
        for index in 0..<breadcrumbs {
            crumbs.append([
                "timestamp": .string(Self.rfc3339(crash.crashTime - Int64(breadcrumbs - index) * 1500)), "type": "navigation",
                "category": "ui.lifecycle", "level": "info", "message": .string(filler(12)),
                "data": ["screen": .string(filler(1) + "ViewController"), "state": "viewDidAppear"],
            ])
        }
        var images: [JSONValue] = []
        for index in 0..<(breadcrumbs / 2 + 8) {
            images.append([
                "type": "macho", "code_file": .string("/System/Library/PrivateFrameworks/\(filler(1))\(index).framework/\(filler(1))"),
                "debug_id": .string(uuid().lowercased()), "image_addr": .string("0x" + String(0x1_9000_0000 + index * 0x40000, radix: 16)),
                "image_size": .int(262_144),
            ])
        }
        var contexts: [String: JSONValue] = [
            "app": [
                "app_identifier": .string(crash.bundleID), "app_version": .string(crash.version), "app_build": .string(crash.build),
                "app_name": "PirateBay",
            ],
            "os": ["name": .string(crash.osName), "version": .string(crash.osVersion), "build": "21A329"],
            "device": ["model": .string(crash.device), "family": "iOS", "arch": "arm64e", "memory_size": .int(5_905_580_032)],
        ]
        var event: [String: JSONValue] = [
            "event_id": .string(crash.id), "timestamp": .string(Self.rfc3339(crash.crashTime)), "platform": "cocoa", "level": "fatal",
            "release": .string("\(crash.bundleID)@\(crash.version)+\(crash.build)"), "dist": .string(crash.build),
            "exception": [
                "values": [
                    [
                        "type": .string(crash.kind.exceptionType), "value": .string(crash.kind.reason ?? crash.kind.code),
                        "mechanism": [
                            "type": "mach", "handled": false,
                            "meta": [
                                "signal": ["name": .string(crash.kind.signal)],
                                "mach_exception": ["name": .string(crash.kind.exceptionType)],
                            ],
                        ],
                        "stacktrace": ["frames": .array(frames)], "thread_id": 0,
                    ]
                ]
            ],
            "threads": ["values": [["id": 0, "crashed": true, "current": true, "name": "main"]]],
            "breadcrumbs": ["values": .array(crumbs)], "debug_meta": ["images": .array(images)],
            "sdk": ["name": "sentry.cocoa", "version": "8.36.0"],
        ]
        if let trail = try embedded(crash.trail, as: embedding) {
            if inExtra { event["extra"] = ["crashtrail": trail] } else { contexts["crashtrail"] = ["trail": trail] }
        }
        event["contexts"] = .object(contexts)
        return Self.json(.object(event))
    }

    mutating func sentryEnvelope(_ crash: CrashCase, breadcrumbs: Int) throws -> [UInt8] {
        let event = try sentryEvent(crash, embedding: .none, inExtra: false, breadcrumbs: breadcrumbs)
        var out = Self.json(["event_id": .string(crash.id), "sent_at": .string(Self.rfc3339(crash.crashTime + 900))])
        out.append(10)
        out += Self.json(["type": "event", "length": .int(Int64(event.count)), "content_type": "application/json"])
        out.append(10)
        out += event
        out.append(10)
        if let trail = crash.trail {
            let binary = try codec.encodeBinary(trail)
            out += Self.json([
                "type": "attachment", "length": .int(Int64(binary.count)), "filename": "crashtrail.ctr",
                "content_type": "application/octet-stream",
            ])
            out.append(10)
            out += binary
            out.append(10)
        }
        return out
    }

    // MARK: .ips

    mutating func ips(_ crash: CrashCase, threads: Int, images: Int) -> [UInt8] {
        let appBase = 0x1_0000_0000 + crash.slide
        var imageNames = ["PirateBay"] + Self.systemImages
        for index in 0..<max(0, images - imageNames.count) { imageNames.append("\(filler(1).capitalized)Kit\(index)") }
        let imageIndex = Dictionary(imageNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        func frameJSON(_ image: String, _ symbol: String) -> JSONValue {
            [
                "imageIndex": .int(Int64(imageIndex[image] ?? 1)), "imageOffset": .int(Self.offset(of: symbol, build: crash.build)),
                "symbol": .string(symbol), "symbolLocation": .int(Int64.random(in: 4...900, using: &random)),
            ]
        }
        var threadValues: [JSONValue] = []
        threadValues.append([
            "triggered": true, "id": .int(Int64.random(in: 100_000...999_999, using: &random)), "queue": "com.apple.main-thread",
            "threadState": "__REGISTERS__", "frames": .array(crash.kind.frames.map { frameJSON($0.image, $0.symbol) }),
        ])
        for index in 1..<max(2, threads) {
            let depth = Int.random(in: 6...18, using: &random)
            let frames = (0..<depth).map { _ in
                frameJSON(Self.systemImages.randomElement(using: &random) ?? "UIKitCore", "_" + filler(1) + "_" + filler(1))
            }
            threadValues.append(["id": .int(Int64(1000 + index)), "name": .string("com.apple.\(filler(1))"), "frames": .array(frames)])
        }
        let usedImages: [JSONValue] = imageNames.enumerated().map { index, name in
            let isApp = index == 0
            return [
                "source": "P", "arch": "arm64e", "base": .int(Int64(isApp ? appBase : 0x1_8000_0000 + UInt64(index) * 0x100000)),
                "size": .int(Int64(isApp ? 1_048_576 : 524_288)), "uuid": .string(uuid().lowercased()),
                "path": .string(
                    isApp
                        ? "/private/var/containers/Bundle/Application/\(crash.id.prefix(8))/PirateBay.app/PirateBay"
                        : "/System/Library/Frameworks/\(name).framework/\(name)"),
                "name": .string(name),
                "CFBundleIdentifier": .string(isApp ? crash.bundleID : "com.apple.\(name)"),
            ]
        }
        let header: JSONValue = [
            "app_name": "PirateBay", "timestamp": .string(Self.ipsTime(crash.crashTime)), "app_version": .string(crash.version),
            "slice_uuid": .string(uuid().lowercased()), "build_version": .string(crash.build), "platform": 2,
            "bundleID": .string(crash.bundleID), "share_with_app_devs": 1, "is_first_party": 0, "bug_type": "309",
            "os_version": .string("iPhone OS \(crash.osVersion) (21A329)"), "incident_id": .string(crash.id), "name": "PirateBay",
        ]
        let body: JSONValue = [
            "uptime": .int(Int64.random(in: 1000...900_000, using: &random)), "procLaunch": .string(Self.ipsTime(crash.launchTime)),
            "procRole": "Foreground", "version": 2, "userID": 501, "deployVersion": 210, "modelCode": .string(crash.device),
            "captureTime": .string(Self.ipsTime(crash.crashTime)), "incident": .string(crash.id), "bug_type": "309",
            "pid": .int(crash.pid), "procName": "PirateBay",
            "procPath": "/private/var/containers/Bundle/Application/PirateBay.app/PirateBay",
            "osVersion": ["train": .string("iPhone OS \(crash.osVersion)"), "build": "21A329", "releaseType": "User"],
            "bundleInfo": [
                "CFBundleIdentifier": .string(crash.bundleID), "CFBundleShortVersionString": .string(crash.version),
                "CFBundleVersion": .string(crash.build),
            ],
            "exception": [
                "type": .string(crash.kind.exceptionType), "signal": .string(crash.kind.signal), "codes": .string(crash.kind.code),
            ],
            "termination": ["namespace": "SIGNAL", "indicator": .string(crash.kind.reason ?? crash.kind.signal)],
            "faultingThread": 0, "threads": .array(threadValues), "usedImages": .array(usedImages),
            "vmSummary": .string(filler(60)),
        ]
        // Register values exceed Int64.max, as in real reports; JSONValue cannot hold them, so they are spliced in.
        var registers = "{\"x\":["
        registers += (0..<29).map { _ in "{\"value\":\(UInt64.random(in: UInt64(Int64.max)...UInt64.max, using: &random))}" }.joined(
            separator: ",")
        registers += "],\"pc\":{\"value\":\(appBase + 1024)},\"flavor\":\"ARM_THREAD_STATE64\",\"cpsr\":{\"value\":1610616832}}"
        let bodyText = CanonicalJSON.string(of: body).replacingOccurrences(of: "\"__REGISTERS__\"", with: registers)
        return Array((CanonicalJSON.string(of: header) + "\n" + bodyText).utf8)
    }

    // MARK: KSCrash

    mutating func kscrash(_ crash: CrashCase, embedding: Embedding, threads: Int) throws -> [UInt8] {
        let appBase = 0x1_0000_0000 + crash.slide
        func backtrace(_ frames: [(image: String, symbol: String)]) -> JSONValue {
            .array(
                frames.map { frame in
                    let base = frame.image == "PirateBay" ? appBase : 0x1_8000_0000 + UInt64(abs(frame.image.utf8.count * 0x100000))
                    let offset = UInt64(Self.offset(of: frame.symbol, build: crash.build))
                    return [
                        "object_name": .string(frame.image), "symbol_name": .string(frame.symbol),
                        "object_addr": .int(Int64(base)), "instruction_addr": .int(Int64(base + offset)),
                        "symbol_addr": .int(Int64(base + offset - 16)),
                    ]
                })
        }
        var threadValues: [JSONValue] = [
            ["index": 0, "crashed": true, "current_thread": true, "backtrace": ["contents": backtrace(crash.kind.frames), "skipped": 0]]
        ]
        for index in 1..<max(2, threads) {
            let frames = (0..<Int.random(in: 5...14, using: &random)).map { _ in
                (image: Self.systemImages.randomElement(using: &random) ?? "UIKitCore", symbol: "_" + filler(1))
            }
            threadValues.append([
                "index": .int(Int64(index)), "crashed": false, "backtrace": ["contents": backtrace(frames), "skipped": 0],
            ])
        }
        let isException = crash.kind.exceptionType.hasPrefix("NS")
        var error: [String: JSONValue] = [
            "type": isException ? "nsexception" : "mach", "address": 0,
            "mach": [
                "exception_name": .string(isException ? "EXC_CRASH" : crash.kind.exceptionType), "code_name": .string(crash.kind.code),
            ],
            "signal": ["name": .string(crash.kind.signal), "signal": 6],
        ]
        if isException { error["nsexception"] = ["name": .string(crash.kind.exceptionType), "reason": .string(crash.kind.reason ?? "")] }
        var object: [String: JSONValue] = [
            "report": [
                "id": .string(crash.id), "timestamp": .int(crash.crashTime * 1000), "version": "3.3.0", "type": "standard",
                "process_name": "PirateBay",
            ],
            "system": [
                "CFBundleIdentifier": .string(crash.bundleID), "CFBundleShortVersionString": .string(crash.version),
                "CFBundleVersion": .string(crash.build), "CFBundleExecutable": "PirateBay", "system_name": .string(crash.osName),
                "system_version": .string(crash.osVersion), "machine": .string(crash.device), "process_id": .int(crash.pid),
                "app_start_time": .string(Self.rfc3339(crash.launchTime)), "process_name": "PirateBay",
            ],
            "crash": ["error": .object(error), "threads": .array(threadValues)],
            "binary_images": .array(
                (["PirateBay"] + Self.systemImages).map { ["name": .string($0), "uuid": .string(uuid()), "image_addr": 4_294_967_296] }),
            "user": [:],
        ]
        if let trail = try embedded(crash.trail, as: embedding) { object["user"] = ["crashtrail": trail] }
        return Self.json(.object(object))
    }

    // MARK: Crashlytics

    /// One line of a BigQuery export: REPEATED RECORDs as arrays, INT64 as strings, custom keys as key/value rows.
    mutating func crashlyticsLine(_ crash: CrashCase, withTrail: Bool, breadcrumbs: Int) throws -> [UInt8] {
        func frames(_ list: [(image: String, symbol: String)]) -> JSONValue {
            .array(
                list.map { frame in
                    let isApp = frame.image == "PirateBay"
                    return [
                        "line": "0", "file": isApp ? .string("\(frame.symbol.split(separator: ".").first ?? "PirateBay").swift") : .null,
                        "symbol": .string(frame.symbol), "offset": .string(String(Self.offset(of: frame.symbol, build: crash.build))),
                        "address": .string(String(0x1_0000_0000 + crash.slide + UInt64(Self.offset(of: frame.symbol, build: crash.build)))),
                        "library": .string(frame.image), "owner": .string(isApp ? "DEVELOPER" : "SYSTEM"), "blamed": .bool(isApp),
                    ]
                })
        }
        var customKeys: [JSONValue] = [["key": "locale", "value": "en_US"], ["key": "experiment", "value": .string(filler(1))]]
        if withTrail, let trail = crash.trail {
            for (key, value) in try codec.encodeKeys(trail).sorted(by: { $0.key < $1.key }) {
                customKeys.append(["key": .string(key), "value": .string(value)])
            }
        }
        let isException = crash.kind.exceptionType.hasPrefix("NS")
        let crumbs: [JSONValue] = (0..<breadcrumbs).map { index in
            [
                "timestamp": .string(Self.rfc3339(crash.crashTime - Int64(breadcrumbs - index) * 2000)), "name": .string(filler(2)),
                "params": [["key": "screen", "value": .string(filler(1))]],
            ]
        }
        let event: JSONValue = [
            "event_id": .string(crash.id), "issue_id": .string(String(format: "%032x", crash.kind.frames.count * 7919)),
            "platform": "IOS", "bundle_identifier": .string(crash.bundleID), "is_fatal": true,
            "event_timestamp": .string(Self.bigQueryTime(crash.crashTime)),
            "received_timestamp": .string(Self.bigQueryTime(crash.crashTime + 60_000)),
            "device": ["manufacturer": "Apple", "model": .string(crash.device), "architecture": "arm64"],
            "operating_system": [
                "display_version": .string(crash.osVersion), "name": "IOS", "modification_state": "UNMODIFIED", "type": "IOS",
                "device_type": "MOBILE",
            ],
            "application": ["build_version": .string(crash.build), "display_version": .string(crash.version)],
            "memory": ["used": .string(String(Int.random(in: 100_000_000...900_000_000, using: &random))), "free": "412000000"],
            "custom_keys": .array(customKeys),
            "exceptions": isException
                ? [
                    [
                        "type": .string(crash.kind.exceptionType), "exception_message": .string(crash.kind.reason ?? ""), "nested": false,
                        "blamed": true, "frames": frames(crash.kind.frames),
                    ]
                ]
                : [],
            "threads": [
                [
                    "crashed": true, "thread_name": "main", "queue_name": "com.apple.main-thread",
                    "signal_name": .string(crash.kind.signal),
                    "signal_code": .string(crash.kind.code), "crash_address": "0", "blamed": true, "frames": frames(crash.kind.frames),
                ]
            ],
            "issue_title": .string(crash.kind.frames.first { $0.image == "PirateBay" }?.symbol ?? crash.kind.exceptionType),
            "issue_subtitle": .string(crash.kind.reason ?? crash.kind.exceptionType),
            "installation_uuid": .string(uuid().lowercased()), "crashlytics_sdk_version": "10.29.0",
            "process_state": "FOREGROUND", "breadcrumbs": .array(crumbs), "logs": [],
        ]
        return Self.json(event)
    }

    /// BigQuery TIMESTAMP text: `2026-11-02 14:45:05.123000 UTC`.
    static func bigQueryTime(_ milliseconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS'000 UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
