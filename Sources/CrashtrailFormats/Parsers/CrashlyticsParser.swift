// swift-format-ignore-file: AlwaysUseLowerCamelCase

import CrashtrailCore
// The payload structs name their properties as the format names its JSON keys (snake_case), so the skimming decoder
// reads each key without a CodingKeys table.
import CrashtrailReports

/// Reads one event of a Crashlytics BigQuery export: REPEATED RECORDs as arrays, INT64 values as strings, and
/// `custom_keys` as an array of `{key, value}`, where the trail rides as `crashtrail.0…N`.
enum CrashlyticsParser {
    private struct Payload: Decodable {
        struct Device: Decodable {
            var model: String?
            var manufacturer: String?
        }
        struct OperatingSystem: Decodable {
            var name: String?
            var display_version: String?
        }
        struct Application: Decodable {
            var display_version: String?
            var build_version: String?
        }
        struct KeyValue: Decodable {
            var key: String?
            var value: LooseScalar?
        }
        struct Frame: Decodable {
            var library: String?
            var symbol: String?
            var offset: LooseScalar?
            var owner: String?
            var blamed: Bool?
        }
        struct Exception: Decodable {
            var type: String?
            var exception_message: String?
            var frames: [Lenient<Frame>]?
        }
        struct Thread: Decodable {
            var crashed: Bool?
            var signal_name: String?
            var signal_code: String?
            var frames: [Lenient<Frame>]?
        }
        /// An Analytics event logged before the crash; `screen_view` names the screen.
        struct Breadcrumb: Decodable {
            var name: String?
            var timestamp: LooseScalar?
            var params: [Lenient<KeyValue>]?
        }
        var event_id: String?
        var issue_id: String?
        var issue_title: String?
        var issue_subtitle: String?
        var bundle_identifier: String?
        var event_timestamp: LooseScalar?
        var device: Lenient<Device>?
        var operating_system: Lenient<OperatingSystem>?
        var application: Lenient<Application>?
        var custom_keys: [Lenient<KeyValue>]?
        var exceptions: [Lenient<Exception>]?
        var threads: [Lenient<Thread>]?
        var breadcrumbs: Lenient<Breadcrumbs>?
    }
    /// The `breadcrumbs` array, read only when the parse asks for them (``ParseContext/readsBreadcrumbs``).
    private struct Breadcrumbs: Decodable {
        var values: [Lenient<Payload.Breadcrumb>] = []
        init(from decoder: any Decoder) throws {
            if decoder.readsBreadcrumbs { values = try [Lenient<Payload.Breadcrumb>](from: decoder) }
        }
    }

    /// - Throws: `RejectionError` when the JSON is broken.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, context: ParseContext) throws(RejectionError) -> ParsedPayload {
        let payload = try PayloadDecoder.decode(Payload.self, from: bytes, what: "the Crashlytics event", context: context)
        var parsed = ParsedPayload(format: .crashlytics, payloadID: payload.event_id.flatMap { $0.isEmpty ? nil : $0 })
        let application = payload.application?.value
        parsed.app = CrashReport.App(
            bundleID: payload.bundle_identifier, version: application?.display_version, build: application?.build_version)
        let os = payload.operating_system?.value
        parsed.os = CrashReport.OS(name: os?.name, version: os?.display_version)
        parsed.device = payload.device?.value?.model
        parsed.time = Timestamp.normalized(payload.event_timestamp?.string)
        let exception = (payload.exceptions ?? []).compactMap(\.value).last
        let threads = payload.threads ?? []
        let crashedIndex = threads.firstIndex { $0.value?.crashed == true }
        let crashed = crashedIndex.flatMap { threads[$0].value }
        parsed.crashedThread = crashedIndex
        parsed.exception = ExceptionInfo(
            type: exception?.type ?? crashed?.signal_name, code: crashed?.signal_code, signal: crashed?.signal_name,
            reason: exception?.exception_message ?? payload.issue_subtitle)
        let frames = exception?.frames ?? crashed?.frames ?? []
        parsed.frames = frames.compactMap(\.value).map { frame in
            let inApp = frame.owner.map { $0 == "DEVELOPER" } ?? !SystemImages.isSystem(name: frame.library, path: nil)
            return StackFrame(image: frame.library, symbol: frame.symbol, offset: frame.offset?.int, inApp: inApp)
        }
        var keys: [String: String] = [:]
        for entry in (payload.custom_keys ?? []).compactMap(\.value) {
            guard let key = entry.key, key == "crashtrail" || key.hasPrefix("crashtrail."), let value = entry.value?.string else {
                continue
            }
            guard key != SessionCarrier.key else {
                parsed.sessionID = SessionCarrier.sessionID(value)
                continue
            }
            keys[key] = value
        }
        if let text = keys["crashtrail"] {
            parsed.trail = .text(text)
        } else if !keys.isEmpty {
            parsed.trail = .keys(keys)
        }
        parsed.sightings = (payload.breadcrumbs?.value?.values ?? []).compactMap { $0.value.flatMap(sighting) }
        return parsed
    }

    /// The screen a `screen_view` breadcrumb names: its `firebase_screen_class` (the class, as UIKit names it), with
    /// its `firebase_screen` parameter as the other name to try.
    private static func sighting(_ breadcrumb: Payload.Breadcrumb) -> ScreenSighting? {
        guard breadcrumb.name == "screen_view" else { return nil }
        var parameters: [String: String] = [:]
        for entry in (breadcrumb.params ?? []).compactMap(\.value) {
            if let key = entry.key, let value = entry.value?.string, !value.isEmpty { parameters[key] = value }
        }
        guard let screen = parameters["firebase_screen_class"] ?? parameters["firebase_screen"] else { return nil }
        let alternative = parameters["firebase_screen_class"] == nil ? nil : parameters["firebase_screen"]
        let time = breadcrumb.timestamp.flatMap { scalar in
            scalar.int.flatMap { Timestamp.milliseconds(epoch: Double($0)) } ?? scalar.string.flatMap(Timestamp.milliseconds(parsing:))
        }
        return ScreenSighting(screen: screen, alternative: alternative, time: time)
    }
}
