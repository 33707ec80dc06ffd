// swift-format-ignore-file: AlwaysUseLowerCamelCase

import CrashtrailCore
// The payload structs name their properties as the format names its JSON keys (snake_case), so the skimming decoder
// reads each key without a CodingKeys table.
import CrashtrailReports

/// Reads a KSCrash report, and SentryCrash's fork of it: `report`, `system`, `crash` and `user` sections.
///
/// `report.version` (an object in old reports, a string in new ones) is not needed; `crash.error.type` names
/// which of `mach`, `signal`, `nsexception`, `cpp_exception`, `user_reported` or `memory_termination` exists.
enum KSCrashParser {
    private struct Payload: Decodable {
        struct Report: Decodable {
            var id: String?
            var timestamp: LooseScalar?
        }
        struct System: Decodable {
            var CFBundleIdentifier: String?
            var CFBundleShortVersionString: String?
            var CFBundleVersion: String?
            var CFBundleExecutable: String?
            var system_name: String?
            var system_version: String?
            var machine: String?
            var process_id: LooseScalar?
            var process_name: String?
            var app_start_time: LooseScalar?
        }
        struct Named: Decodable {
            var name: String?
            var reason: String?
        }
        struct Mach: Decodable {
            var exception_name: String?
            var code_name: String?
            var code: LooseScalar?
        }
        struct Signal: Decodable {
            var name: String?
            var code_name: String?
            var signal: LooseScalar?
        }
        struct Memory: Decodable { var memory_level: String? }
        struct Error: Decodable {
            var type: String?
            var reason: String?
            var mach: Lenient<Mach>?
            var signal: Lenient<Signal>?
            var nsexception: Lenient<Named>?
            var cpp_exception: Lenient<Named>?
            var user_reported: Lenient<Named>?
            var memory_termination: Lenient<Memory>?
        }
        struct Frame: Decodable {
            var object_name: String?
            var symbol_name: String?
            var instruction_addr: LooseScalar?
            var object_addr: LooseScalar?
        }
        struct Backtrace: Decodable { var contents: [Lenient<Frame>]? }
        /// A thread; only the crashed one has its backtrace decoded.
        struct Thread: Decodable {
            var crashed: Bool?
            var backtrace: Lenient<Backtrace>?
            private enum CodingKeys: String, CodingKey { case crashed, backtrace }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                crashed = try? container.decodeIfPresent(Bool.self, forKey: .crashed)
                if crashed == true { backtrace = try? container.decodeIfPresent(Lenient<Backtrace>.self, forKey: .backtrace) }
            }
        }
        struct Image: Decodable {
            var name: String?
            var uuid: String?
            var image_addr: LooseScalar?
        }
        struct Crash: Decodable {
            var error: Lenient<Error>?
            var threads: [Lenient<Thread>]?
            var diagnosis: String?
        }
        struct User: Decodable {
            var crashtrail: DecodedJSON?
            var crashtrail_session: LooseScalar?
        }
        /// SentryCrash (the KSCrash fork inside sentry-cocoa) keeps the event's scope, breadcrumbs and tags included.
        struct Scope: Decodable {
            var breadcrumbs: Lenient<SentryBreadcrumbs>?
            var tags: Lenient<SentrySessionTag>?
        }
        var report: Report
        var system: Lenient<System>?
        var crash: Crash
        /// The images the crashed thread's frames name (by file name); the others are skipped.
        var binary_images: [Image] = []

        private enum CodingKeys: String, CodingKey { case report, system, crash, user, sentry_sdk_scope, binary_images }
        /// An image's path alone, to tell whether the image is wanted.
        private struct ImageName: Decodable { var name: String? }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            report = try container.decode(Report.self, forKey: .report)
            crash = try container.decode(Crash.self, forKey: .crash)
            system = container.lenient(Lenient<System>.self, .system)
            user = container.lenient(Lenient<User>.self, .user)
            sentry_sdk_scope = container.lenient(Lenient<Scope>.self, .sentry_sdk_scope)
            let crashed = (crash.threads ?? []).compactMap(\.value).first { $0.crashed == true }
            let wanted = Set((crashed?.backtrace?.value?.contents ?? []).compactMap { $0.value?.object_name })
            guard !wanted.isEmpty, var images = try? container.nestedUnkeyedContainer(forKey: .binary_images) else { return }
            binary_images = images.decodeElements(Image.self, probing: ImageName.self) { image in
                image.name.map { wanted.contains(SystemImages.baseName($0)) } ?? false
            }
        }
        var user: Lenient<User>?
        var sentry_sdk_scope: Lenient<Scope>?
    }

    /// - Throws: `RejectionError` when the JSON is broken or `report`/`crash` are not objects.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, context: ParseContext) throws(RejectionError) -> ParsedPayload {
        let payload = try PayloadDecoder.decode(Payload.self, from: bytes, what: "the KSCrash report", context: context)
        var parsed = ParsedPayload(format: .kscrash, payloadID: payload.report.id.flatMap { $0.isEmpty ? nil : $0 })
        let system = payload.system?.value
        parsed.app = CrashReport.App(
            bundleID: system?.CFBundleIdentifier, version: system?.CFBundleShortVersionString, build: system?.CFBundleVersion)
        parsed.os = CrashReport.OS(name: system?.system_name, version: system?.system_version)
        parsed.device = system?.machine
        parsed.time = timestamp(payload.report.timestamp)
        parsed.pid = system?.process_id?.int
        parsed.launchTime = system?.app_start_time?.string.flatMap(Timestamp.milliseconds(parsing:))

        let error = payload.crash.error?.value
        let mach = error?.mach?.value
        let signal = error?.signal?.value
        let type: String? =
            switch error?.type {
            case "nsexception": error?.nsexception?.value?.name
            case "cpp_exception": error?.cpp_exception?.value?.name
            case "user": error?.user_reported?.value?.name
            case "memory_termination": "MemoryTermination"
            case "signal": signal?.name
            default: mach?.exception_name
            }
        let reason =
            error?.nsexception?.value?.reason ?? error?.cpp_exception?.value?.reason
            ?? error?.user_reported?.value?.reason ?? error?.reason
            ?? error?.memory_termination?.value?.memory_level.map { "memory level \($0)" } ?? payload.crash.diagnosis
        let language: ExceptionInfo.Language? =
            switch error?.type {
            case "nsexception", "cpp_exception", "user": type.map { ExceptionInfo.Language(name: $0, reason: reason) }
            default: nil
            }
        // Apple's exception type when the report names one (SPEC section 8): EXC_CRASH for an uncaught exception and an
        // abort, as an .ips names them; the language exception stays in `language`, and still heads the signature.
        let appleType = error?.type == "memory_termination" ? nil : mach?.exception_name
        parsed.exception = ExceptionInfo(
            type: appleType ?? type ?? signal?.name ?? error?.type,
            code: mach?.code_name ?? mach?.code?.string, signal: signal?.name, reason: reason, mach: mach?.exception_name,
            language: language)

        let executable = system?.CFBundleExecutable ?? system?.process_name
        let threads = payload.crash.threads ?? []
        let crashedIndex = threads.firstIndex { $0.value?.crashed == true }
        let crashed = crashedIndex.flatMap { threads[$0].value }
        parsed.crashedThread = crashedIndex
        // KSCrash names a frame's image by its file name and an image by its path.
        parsed.binaryImages = payload.binary_images.compactMap { image in
            guard let path = image.name else { return nil }
            return BinaryImage(
                name: SystemImages.baseName(path), uuid: image.uuid, loadAddress: image.image_addr?.int.map { UInt64(bitPattern: $0) })
        }
        parsed.frames = (crashed?.backtrace?.value?.contents ?? []).compactMap(\.value).map { frame in
            var offset: Int64?
            if let instruction = frame.instruction_addr?.int, let base = frame.object_addr?.int {
                let (difference, overflow) = instruction.subtractingReportingOverflow(base)
                offset = overflow ? nil : difference
            }
            let inApp =
                frame.object_name != nil && (frame.object_name == executable || !SystemImages.isSystem(name: frame.object_name, path: nil))
            return StackFrame(image: frame.object_name, symbol: frame.symbol_name, offset: offset, inApp: inApp)
        }
        parsed.trail = payload.user?.value?.crashtrail.flatMap { TrailCarrier.from(jsonValue: $0.value) }
        parsed.sightings = payload.sentry_sdk_scope?.value?.breadcrumbs?.value?.sightings ?? []
        parsed.sessionID = SessionCarrier.sessionID(
            payload.user?.value?.crashtrail_session?.string ?? payload.sentry_sdk_scope?.value?.tags?.value?.session)
        return parsed
    }

    private static func timestamp(_ value: LooseScalar?) -> String? {
        // Text (`1970-01-17T19:18:32Z`) or an epoch number in seconds or microseconds, by magnitude.
        Timestamp.normalized(value?.string)
    }
}
