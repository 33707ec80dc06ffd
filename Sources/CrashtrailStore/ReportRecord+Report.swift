import CrashtrailCore
import CrashtrailReports
import Foundation

extension ReportRecord {
    /// The normalized report this row holds.
    package var report: CrashReport {
        let details = Self.decodeDetails(details)
        return CrashReport(
            id: id, format: format,
            app: CrashReport.App(bundleID: bundleID, version: appVersion, build: appBuild),
            os: CrashReport.OS(name: osName, version: osVersion), device: device, time: time,
            exception: ExceptionInfo(
                type: exceptionType, code: exceptionCode, signal: exceptionSignal, reason: exceptionReason, mach: details.mach,
                language: details.language),
            frames: Self.decodeFrames(frames), exceptionBacktrace: Self.decodeFrames(exceptionFrames),
            crashedThread: details.crashedThread, binaryImages: details.binaryImages, signature: signature,
            trailInfo: trailInfo)
    }

    /// Whether and where the row's trail came from.
    package var trailInfo: TrailInfo {
        TrailInfo(source: trailSource, steps: trailSteps, error: trailError)
    }

    /// The stored trail, parsed; nil when the report has none.
    /// - Throws: `TrailError` if the stored JSON no longer parses (a damaged store).
    package func decodedTrail() throws(TrailError) -> Trail? {
        guard let trail else { return nil }
        return try Trail(json: Array(trail.utf8))
    }

    /// The raw payload, restored byte for byte.
    /// - Throws: `PayloadCompressionError` when the stored stream is damaged.
    package func rawPayload() throws(PayloadCompressionError) -> [UInt8] {
        try PayloadCompression.decompressed([UInt8](payload), size: payloadSize)
    }

    package static func encodeFrames(_ frames: [StackFrame]) -> String {
        CanonicalJSON.string(
            of: .array(
                frames.map { frame in
                    var object = frame.jsonValue.objectValue ?? [:]
                    object["inApp"] = .bool(frame.inApp)
                    return .object(object)
                }))
    }

    static func decodeFrames(_ text: String) -> [StackFrame] {
        guard case .array(let values)? = try? JSONParser.parse(text) else { return [] }
        return values.map { value in
            StackFrame(
                image: value["image"]?.stringValue, symbol: value["symbol"]?.stringValue, offset: value["offset"]?.intValue,
                inApp: value["inApp"] == .bool(true), rawSymbol: value["rawSymbol"]?.stringValue, file: value["file"]?.stringValue,
                line: value["line"]?.intValue.map { Int(clamping: $0) }, inlined: value["inlined"] == .bool(true),
                functionOffset: value["functionOffset"]?.intValue)
        }
    }
}
