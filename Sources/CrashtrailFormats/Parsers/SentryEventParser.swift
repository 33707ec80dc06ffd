// swift-format-ignore-file: AlwaysUseLowerCamelCase

import CrashtrailCore
// The payload structs name their properties as the format names its JSON keys (snake_case), so the skimming decoder
// reads each key without a CodingKeys table.
import CrashtrailReports

/// Reads a Sentry event: `event_id`, `exception`, `threads`, `contexts`, `extra`.
enum SentryEventParser {
    struct Frame: Decodable {
        var function: String?
        var symbol: String?
        var package: String?
        var module: String?
        var instruction_addr: String?
        var image_addr: String?
        var in_app: Bool?
    }
    struct Stacktrace: Decodable { var frames: [Lenient<Frame>]? }
    struct Meta: Decodable {
        struct Named: Decodable { var name: String? }
        var signal: Lenient<Named>?
        var mach_exception: Lenient<Named>?
    }
    struct Mechanism: Decodable {
        var type: String?
        var meta: Lenient<Meta>?
    }
    struct ExceptionValue: Decodable {
        var type: String?
        var value: String?
        var mechanism: Lenient<Mechanism>?
        var stacktrace: Lenient<Stacktrace>?
        var thread_id: LooseScalar?
    }
    /// A thread; only a crashed one has its stack decoded (the exception usually carries its own).
    struct Thread: Decodable {
        var id: LooseScalar?
        var crashed: Bool?
        var stacktrace: Lenient<Stacktrace>?
        private enum CodingKeys: String, CodingKey { case id, crashed, stacktrace }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try? container.decodeIfPresent(LooseScalar.self, forKey: .id)
            crashed = try? container.decodeIfPresent(Bool.self, forKey: .crashed)
            if crashed == true { stacktrace = try? container.decodeIfPresent(Lenient<Stacktrace>.self, forKey: .stacktrace) }
        }
    }
    /// `{"values": [...]}` or, in older events, the bare array.
    struct Values<Element: Decodable & Sendable>: Decodable {
        var values: [Lenient<Element>]
        private enum CodingKeys: String, CodingKey { case values }
        init(from decoder: any Decoder) throws {
            if let container = try? decoder.container(keyedBy: CodingKeys.self) {
                values = try container.decodeIfPresent([Lenient<Element>].self, forKey: .values) ?? []
            } else {
                values = try [Lenient<Element>](from: decoder)
            }
        }
    }
    struct Contexts: Decodable {
        struct App: Decodable {
            var app_identifier: String?
            var app_version: String?
            var app_build: String?
        }
        struct OS: Decodable {
            var name: String?
            var version: String?
        }
        struct Device: Decodable { var model: String? }
        struct Trail: Decodable {
            var trail: DecodedJSON?
            var session: LooseScalar?
        }
        var app: Lenient<App>?
        var os: Lenient<OS>?
        var device: Lenient<Device>?
        var crashtrail: Lenient<Trail>?
    }
    struct Extra: Decodable { var crashtrail: DecodedJSON? }
    struct DebugMeta {
        /// A `macho` image (`code_file`, `debug_id`) or an older `apple` one (`name`, `uuid`).
        struct Image: Decodable {
            var code_file: String?
            var name: String?
            var debug_id: String?
            var uuid: String?
            var image_addr: String?
            var image_size: LooseScalar?

            /// The image's path (`code_file`, or an `apple` image's `name`).
            var path: String? { code_file ?? name }
            /// Where it was loaded, when `image_addr` is a hex address.
            var start: UInt64? { image_addr.flatMap(SentryEventParser.hex).map { UInt64(bitPattern: $0) } }
            /// How many bytes it covers, when given.
            var size: UInt64? { image_size?.int.flatMap { $0 > 0 ? UInt64($0) : nil } }
        }
        var images: [Image] = []
    }
    struct Payload: Decodable {
        var event_id: String?
        var timestamp: LooseScalar?
        var release: String?
        var dist: String?
        var exception: Lenient<Values<ExceptionValue>>?
        var threads: Lenient<Values<Thread>>?
        var contexts: Lenient<Contexts>?
        var extra: Lenient<Extra>?
        var breadcrumbs: Lenient<SentryBreadcrumbs>?
        var tags: Lenient<SentrySessionTag>?
        /// The images the stack's frames fall in (by address) or name (by their `package`); the others (hundreds) are
        /// skipped.
        var debug_meta = DebugMeta()

        private enum CodingKeys: String, CodingKey {
            case event_id, timestamp, release, dist, exception, threads, contexts, extra, breadcrumbs, debug_meta, tags
        }
        private enum DebugMetaKeys: String, CodingKey { case images }
        /// An image's path, and its range only when asked: what tells whether the image is wanted, read as little as
        /// possible (an event lists hundreds of images, its frames fall in a few).
        private struct ImageProbe: Decodable {
            private enum Keys: String, CodingKey { case code_file, name, image_addr, image_size }
            let path: String?
            private let container: KeyedDecodingContainer<Keys>?

            init(from decoder: any Decoder) throws {
                let container = try? decoder.container(keyedBy: Keys.self)
                path =
                    (try? container?.decodeIfPresent(String.self, forKey: .code_file))
                    ?? (try? container?.decodeIfPresent(String.self, forKey: .name))
                self.container = container
            }

            /// Whether the image covers one of `sortedAddresses`.
            func holdsAny(of sortedAddresses: [UInt64]) -> Bool {
                guard !sortedAddresses.isEmpty, let container,
                    let text = try? container.decodeIfPresent(String.self, forKey: .image_addr),
                    let start = SentryEventParser.hex(text),
                    let size = (try? container.decodeIfPresent(LooseScalar.self, forKey: .image_size))?.int, size > 0
                else { return false }
                return ImageAddressIndex<Never>.holdsAny(of: sortedAddresses, start: UInt64(bitPattern: start), size: UInt64(size))
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            event_id = container.lenient(String.self, .event_id)
            timestamp = container.lenient(LooseScalar.self, .timestamp)
            release = container.lenient(String.self, .release)
            dist = container.lenient(String.self, .dist)
            exception = container.lenient(Lenient<Values<ExceptionValue>>.self, .exception)
            threads = container.lenient(Lenient<Values<Thread>>.self, .threads)
            contexts = container.lenient(Lenient<Contexts>.self, .contexts)
            extra = container.lenient(Lenient<Extra>.self, .extra)
            breadcrumbs = container.lenient(Lenient<SentryBreadcrumbs>.self, .breadcrumbs)
            tags = container.lenient(Lenient<SentrySessionTag>.self, .tags)
            let stacks =
                (exception?.value?.values ?? []).map { $0.value?.stacktrace?.value?.frames }
                + (threads?.value?.values ?? []).map { $0.value?.stacktrace?.value?.frames }
            let frames = stacks.flatMap { $0 ?? [] }.compactMap(\.value)
            // A package is a path (sentry-cocoa writes code_file's), a file name, or absent.
            let packages = Set(frames.compactMap(\.package))
            let addresses = frames.compactMap { $0.instruction_addr.flatMap(SentryEventParser.hex) }.map { UInt64(bitPattern: $0) }.sorted()
            guard !packages.isEmpty || !addresses.isEmpty,
                let meta = try? container.nestedContainer(keyedBy: DebugMetaKeys.self, forKey: .debug_meta),
                var images = try? meta.nestedUnkeyedContainer(forKey: .images)
            else { return }
            debug_meta.images = images.decodeElements(DebugMeta.Image.self, probing: ImageProbe.self) { image in
                if let path = image.path, packages.contains(path) { return true }
                if image.holdsAny(of: addresses) { return true }
                return image.path.map { packages.contains(SystemImages.baseName($0)) } ?? false
            }
        }
    }

    /// - Throws: `RejectionError` when the JSON is broken.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, what: String = "the Sentry event", context: ParseContext
    ) throws(RejectionError) -> ParsedPayload {
        let payload = try PayloadDecoder.decode(Payload.self, from: bytes, what: what, context: context)
        var parsed = ParsedPayload(format: .sentryEvent, payloadID: payload.event_id.flatMap(normalizedEventID))
        let contexts = payload.contexts?.value
        let app = contexts?.app?.value
        let release = payload.release.map(parseRelease)
        parsed.app = CrashReport.App(
            bundleID: app?.app_identifier ?? release?.bundleID, version: app?.app_version ?? release?.version,
            build: app?.app_build ?? payload.dist ?? release?.build)
        parsed.os = CrashReport.OS(name: contexts?.os?.value?.name, version: contexts?.os?.value?.version)
        parsed.device = contexts?.device?.value?.model
        parsed.time = Timestamp.normalized(payload.timestamp?.string)

        let exception = payload.exception?.value?.values.compactMap(\.value).last
        let meta = exception?.mechanism?.value?.meta?.value
        parsed.exception = ExceptionInfo(
            type: exception?.type, code: meta?.mach_exception?.value?.name, signal: meta?.signal?.value?.name,
            reason: exception?.value, mach: meta?.mach_exception?.value?.name)
        let threads = payload.threads?.value?.values.compactMap(\.value) ?? []
        let crashedThread = threads.first { $0.crashed == true }
        parsed.crashedThread = (crashedThread?.id?.int ?? exception?.thread_id?.int).map { Int(clamping: $0) }
        let images = payload.debug_meta.images
        let stack = exception?.stacktrace?.value?.frames ?? crashedThread?.stacktrace?.value?.frames ?? []
        // Sentry lists frames caller first; the normalized report lists the crashing frame first.
        let lookup = ImageLookup(images)
        parsed.frames = stack.compactMap(\.value).reversed().map { frame in frame.stackFrame(in: lookup) }
        // The images the frames fall in, named as the frames name them: by the file name of their path.
        let used = Set(parsed.frames.compactMap(\.image))
        parsed.binaryImages = images.compactMap { image in
            guard let path = image.path, used.contains(SystemImages.baseName(path)) else { return nil }
            // A Mach-O debug ID is the image's UUID; the prefix alone, should an appendix follow it.
            let debugID = image.debug_id.map { $0.count > 36 ? String($0.prefix(36)) : $0 }
            return BinaryImage(name: SystemImages.baseName(path), uuid: debugID ?? image.uuid, loadAddress: image.start)
        }
        let trailValue = contexts?.crashtrail?.value?.trail?.value ?? payload.extra?.value?.crashtrail?.value
        parsed.trail = trailValue.flatMap(TrailCarrier.from(jsonValue:))
        parsed.sightings = payload.breadcrumbs?.value?.sightings ?? []
        parsed.sessionID = SessionCarrier.sessionID(payload.tags?.value?.session ?? contexts?.crashtrail?.value?.session?.string)
        return parsed
    }

    /// An event ID as 32 lower-case hex digits without dashes, or nil when it is not a UUID.
    static func normalizedEventID(_ text: String) -> String? {
        let digits = text.lowercased().filter { $0 != "-" }
        guard digits.count == 32, digits.allSatisfy(\.isHexDigit) else { return nil }
        return digits
    }

    /// `com.example.app@3.1.0+412` → bundle ID, version, build.
    static func parseRelease(_ release: String) -> (bundleID: String?, version: String?, build: String?) {
        guard let at = release.firstIndex(of: "@") else { return (nil, release, nil) }
        let package = String(release[..<at])
        let rest = release[release.index(after: at)...]
        if let plus = rest.firstIndex(of: "+") {
            return (package, String(rest[..<plus]), String(rest[rest.index(after: plus)...]))
        }
        return (package, String(rest), nil)
    }

    /// Finds a frame's image: by the address the frame executed at, else by the path or name its `package` gives.
    struct ImageLookup {
        let byAddress: ImageAddressIndex<DebugMeta.Image>
        let byPath: [String: DebugMeta.Image]

        init(_ images: [DebugMeta.Image]) {
            byAddress = ImageAddressIndex(images.compactMap { image in image.start.map { ($0, image.size ?? 0, image) } })
            var byPath: [String: DebugMeta.Image] = [:]
            for image in images {
                // The first image of a path, unless a later one of the same path says where it was loaded.
                guard let path = image.path else { continue }
                for key in [path, SystemImages.baseName(path)] where byPath[key] == nil || byPath[key]?.start == nil {
                    byPath[key] = image
                }
            }
            self.byPath = byPath
        }

        func image(of frame: Frame) -> DebugMeta.Image? {
            if let address = frame.instruction_addr.flatMap(SentryEventParser.hex),
                let image = byAddress.image(containing: UInt64(bitPattern: address))
            {
                return image
            }
            return frame.package.flatMap { byPath[$0] }
        }
    }

    static func hex(_ text: String) -> Int64? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        return UInt64(text.dropFirst(2), radix: 16).map { Int64(bitPattern: $0) }
    }
}

extension SentryEventParser.Frame {
    /// The normalized frame: its image named by the file name of the image it falls in (else of its `package`, else
    /// its `module`), and its offset from that image's load address (the frame's own `image_addr` first).
    func stackFrame(in lookup: SentryEventParser.ImageLookup) -> StackFrame {
        let found = lookup.image(of: self)
        let path = found?.path ?? package
        let image = path.map(SystemImages.baseName) ?? module
        var offset: Int64?
        if let instruction = instruction_addr.flatMap(SentryEventParser.hex),
            let base = image_addr.flatMap(SentryEventParser.hex) ?? found?.start.map({ Int64(bitPattern: $0) })
        {
            offset = instruction &- base
        }
        return StackFrame(
            image: image, symbol: function ?? symbol, offset: offset, inApp: in_app ?? !SystemImages.isSystem(name: image, path: path))
    }
}
