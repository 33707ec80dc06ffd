// swift-format-ignore-file: AlwaysUseLowerCamelCase

import CrashtrailCore
import CrashtrailReports
// The payload structs name their properties as the format names its JSON keys (snake_case), so the skimming decoder
// reads each key without a CodingKeys table.
import Foundation

/// Reads an Apple crash report (`.ips`): a one-line JSON header, then a JSON body (`bug_type` `"309"`).
///
/// Only the fields crashtrail stores are named, so register values beyond 64 bits and keys repeated with
/// another case never matter.
enum IPSParser {
    private struct Body: Decodable {
        struct OSVersion: Decodable {
            var train: String?
            var build: String?
        }
        struct BundleInfo: Decodable {
            var CFBundleIdentifier: String?
            var CFBundleShortVersionString: String?
            var CFBundleVersion: String?
        }
        struct Exception: Decodable {
            var type: String?
            var signal: String?
            var codes: String?
            var subtype: String?
        }
        struct Termination: Decodable {
            var indicator: String?
            var reasons: [String]?
        }
        struct Frame: Decodable {
            var imageIndex: Int?
            var imageOffset: LooseScalar?
            var symbol: String?
        }
        /// A thread; only the triggered (crashed) one has its frames decoded, which keeps big reports fast.
        struct Thread: Decodable {
            var triggered: Bool?
            var frames: [Lenient<Frame>]?
            private enum CodingKeys: String, CodingKey { case triggered, frames }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                triggered = try? container.decodeIfPresent(Bool.self, forKey: .triggered)
                if triggered == true { frames = try? container.decodeIfPresent([Lenient<Frame>].self, forKey: .frames) }
            }
        }
        struct Image: Decodable {
            var name: String?
            var path: String?
            var uuid: String?
            var base: LooseScalar?
        }
        var incident: String?
        var procLaunch: String?
        var captureTime: String?
        var pid: LooseScalar?
        var modelCode: String?
        var procName: String?
        var osVersion: Lenient<OSVersion>?
        var bundleInfo: Lenient<BundleInfo>?
        var exception: Lenient<Exception>?
        var termination: Lenient<Termination>?
        /// Application Specific Information, by image: where an uncaught exception's name and reason are written.
        var asi: Lenient<[String: Lenient<[String]>]>?
        /// The uncaught exception's own backtrace, when the crash is one.
        var lastExceptionBacktrace: [Lenient<Frame>]?
        var threads: [Lenient<Thread>]?
        /// The crashed thread's index.
        var faultingThread: LooseScalar?
        /// The images the crashed thread's frames name, by index; the others (hundreds) are skipped.
        var usedImages: [Int: Image] = [:]

        private enum CodingKeys: String, CodingKey {
            case incident, procLaunch, captureTime, pid, modelCode, procName, osVersion, bundleInfo, exception, termination
            case asi, lastExceptionBacktrace, threads, faultingThread, usedImages
        }

        /// Decodes nothing: a placeholder for an array element that is not needed.
        private struct Skip: Decodable {
            init(from decoder: any Decoder) throws {}
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            incident = container.lenient(String.self, .incident)
            procLaunch = container.lenient(String.self, .procLaunch)
            captureTime = container.lenient(String.self, .captureTime)
            pid = container.lenient(LooseScalar.self, .pid)
            modelCode = container.lenient(String.self, .modelCode)
            procName = container.lenient(String.self, .procName)
            osVersion = container.lenient(Lenient<OSVersion>.self, .osVersion)
            bundleInfo = container.lenient(Lenient<BundleInfo>.self, .bundleInfo)
            exception = container.lenient(Lenient<Exception>.self, .exception)
            termination = container.lenient(Lenient<Termination>.self, .termination)
            asi = container.lenient(Lenient<[String: Lenient<[String]>]>.self, .asi)
            lastExceptionBacktrace = container.lenient([Lenient<Frame>].self, .lastExceptionBacktrace)
            threads = container.lenient([Lenient<Thread>].self, .threads)
            faultingThread = container.lenient(LooseScalar.self, .faultingThread)
            let crashed = threads?.compactMap(\.value).first { $0.triggered == true }
            let wanted = Set(((crashed?.frames ?? []) + (lastExceptionBacktrace ?? [])).compactMap { $0.value?.imageIndex })
            guard !wanted.isEmpty, var images = try? container.nestedUnkeyedContainer(forKey: .usedImages) else { return }
            var index = 0
            while !images.isAtEnd, index <= (wanted.max() ?? 0) {
                if wanted.contains(index) {
                    usedImages[index] = (try? images.decode(Lenient<Image>.self))?.value
                } else {
                    guard (try? images.decode(Skip.self)) != nil else { break }
                }
                index += 1
            }
        }
    }

    /// - Throws: `RejectionError` when the header or body is broken, or the report is not an app crash with a
    ///   JSON body (`bug_type` other than `"309"`).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, context: ParseContext) throws(RejectionError) -> ParsedPayload {
        let (header, headerEnd) = try IPSHeader.read(bytes, context: context)
        let bugType = header.bug_type?.string ?? "?"
        guard bugType == "309" else {
            let kind =
                switch bugType {
                case "109": "a legacy text crash report under a JSON header"
                case "151", "210": "a kernel report"
                case "288": "a stackshot"
                default: "not an app crash report"
                }
            throw RejectionError(
                .unsupportedFormat, ".ips bug_type \"\(bugType)\" is \(kind); crashtrail ingests app crash reports (bug_type \"309\")")
        }
        let bodyBytes = UnsafeBufferPointer(rebasing: bytes[headerEnd...])
        guard bodyBytes.contains(where: { !JSONBytes.isWhitespace($0) }) else {
            throw RejectionError(.invalidReport, "the .ips file has a header but no report body after it")
        }
        let body = try PayloadDecoder.decode(Body.self, from: bodyBytes, what: "the .ips report body", context: context.forPart)

        var parsed = ParsedPayload(format: .ips, payloadID: header.incident_id ?? body.incident)
        let bundle = body.bundleInfo?.value
        parsed.app = CrashReport.App(
            bundleID: bundle?.CFBundleIdentifier ?? header.bundleID,
            version: nonEmpty(header.app_version) ?? bundle?.CFBundleShortVersionString,
            build: nonEmpty(header.build_version) ?? bundle?.CFBundleVersion)
        if let train = body.osVersion?.value?.train ?? header.os_version.map(stripBuild) {
            parsed.os = CrashReport.OS.parsing(train)
        }
        parsed.device = body.modelCode
        parsed.time = Timestamp.normalized(body.captureTime) ?? Timestamp.normalized(header.timestamp)
        let exception = body.exception?.value
        parsed.exception = ExceptionInfo(
            type: exception?.type, code: exception?.codes, signal: exception?.signal,
            reason: exception?.subtype ?? body.termination?.value?.indicator, mach: exception?.type)
        // An uncaught exception is named in the Application Specific Information, as in the text rendering.
        let information = (body.asi?.value ?? [:]).sorted { $0.key < $1.key }.flatMap { $0.value.value ?? [] }
        AppleTextParser.languageException(in: information.map { Substring($0) }, into: &parsed.exception)
        parsed.pid = body.pid?.int
        parsed.launchTime = body.procLaunch.flatMap(Timestamp.milliseconds(parsing:))

        let threads = body.threads ?? []
        let crashedIndex = threads.firstIndex { $0.value?.triggered == true }
        let crashed = crashedIndex.flatMap { threads[$0].value }
        parsed.crashedThread = body.faultingThread?.int.map { Int(clamping: $0) } ?? crashedIndex
        let images = body.usedImages
        func stackFrame(_ frame: Body.Frame) -> StackFrame {
            let image = frame.imageIndex.flatMap { images[$0] }
            let name = image?.name ?? image?.path.map(SystemImages.baseName)
            let symbol = frame.symbol.flatMap { $0 == "<deduplicated_symbol>" || $0 == "???" ? nil : $0 }
            return StackFrame(
                image: name, symbol: symbol, offset: frame.imageOffset?.int,
                inApp: image != nil && !SystemImages.isSystem(name: name, path: image?.path))
        }
        parsed.frames = (crashed?.frames ?? []).compactMap(\.value).map(stackFrame)
        parsed.binaryImages = images.sorted { $0.key < $1.key }.compactMap { _, image in
            guard let name = image.name ?? image.path.map(SystemImages.baseName) else { return nil }
            return BinaryImage(name: name, uuid: image.uuid, loadAddress: image.base?.int.map { UInt64(bitPattern: $0) })
        }
        parsed.exceptionFrames = (body.lastExceptionBacktrace ?? []).compactMap(\.value).map(stackFrame)
        return parsed
    }

    private static func nonEmpty(_ text: String?) -> String? {
        text.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `iPhone OS 15.4 (19E240)` → `iPhone OS 15.4`.
    private static func stripBuild(_ text: String) -> String {
        guard let open = text.lastIndex(of: "(") else { return text }
        return text[..<open].trimmingCharacters(in: .whitespaces)
    }
}
