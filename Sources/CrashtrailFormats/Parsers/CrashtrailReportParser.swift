import CrashtrailCore
import CrashtrailReports

/// Reads crashtrail's own report (SPEC section 7): `"crashtrail": 1`, `id`, `time` and the fields a device knows.
enum CrashtrailReportParser {
    private struct Payload: Decodable {
        struct App: Decodable {
            var bundleID: String?
            var version: String?
            var build: String?
        }
        struct OS: Decodable {
            var name: String?
            var version: String?
        }
        struct Exception: Decodable {
            var type: String?
            var code: LooseScalar?
            var signal: String?
            var reason: String?
        }
        struct Frame: Decodable {
            var image: String?
            var symbol: String?
            var offset: LooseScalar?
            var inApp: Bool?
        }
        var crashtrail: LooseScalar?
        var id: LooseScalar?
        var time: LooseScalar?
        var app: Lenient<App>?
        var os: Lenient<OS>?
        var device: LooseScalar?
        var exception: Lenient<Exception>?
        var frames: [Lenient<Frame>]?
        var trail: DecodedJSON?
        var pid: LooseScalar?
    }

    /// - Throws: `RejectionError` when the JSON is broken or `crashtrail`, `id` or `time` is missing.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, context: ParseContext) throws(RejectionError) -> ParsedPayload {
        let payload = try PayloadDecoder.decode(Payload.self, from: bytes, what: "the crashtrail report", context: context)
        guard payload.crashtrail?.int == 1 else {
            throw RejectionError(
                .invalidReport, "the crashtrail report's \"crashtrail\" field must be 1, the only report version this build reads")
        }
        guard let id = payload.id?.string, !id.allSatisfy(\.isWhitespace) else {
            throw RejectionError(.invalidReport, "the crashtrail report is missing its required \"id\" field, or it is blank")
        }
        guard let timeText = payload.time?.string else {
            throw RejectionError(.invalidReport, "the crashtrail report \(id) is missing its required \"time\" field (RFC 3339)")
        }
        guard let time = Timestamp.normalized(timeText) else {
            throw RejectionError(
                .invalidReport, "the crashtrail report \(id) has \"time\" \"\(timeText)\", which is not an RFC 3339 timestamp")
        }
        var parsed = ParsedPayload(format: .crashtrail, payloadID: id)
        parsed.time = time
        if let app = payload.app?.value {
            parsed.app = CrashReport.App(bundleID: app.bundleID, version: app.version, build: app.build)
        }
        if let os = payload.os?.value { parsed.os = CrashReport.OS(name: os.name, version: os.version) }
        parsed.device = payload.device?.string
        if let exception = payload.exception?.value {
            parsed.exception = ExceptionInfo(
                type: exception.type, code: exception.code?.string, signal: exception.signal, reason: exception.reason)
        }
        parsed.frames = (payload.frames ?? []).compactMap(\.value).map { frame in
            StackFrame(
                image: frame.image, symbol: frame.symbol, offset: frame.offset?.int,
                inApp: frame.inApp ?? !SystemImages.isSystem(name: frame.image, path: nil))
        }
        parsed.pid = payload.pid?.int
        parsed.trail = payload.trail.flatMap { TrailCarrier.from(jsonValue: $0.value) }
        return parsed
    }
}
