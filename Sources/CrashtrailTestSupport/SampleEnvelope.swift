import Foundation

/// Sentry envelopes of the sample event `Samples/reports/sentry-event-contexts-ct1.json` (5 KB, with a `ct1:` trail)
/// under event IDs a test chooses, as load for `crashtrail serve`.
public enum SampleEnvelope {
    /// The sample event's text, and the event ID it was written with.
    static let event =
        (try? String(contentsOf: PackageRoot.url.appendingPathComponent("Samples/reports/sentry-event-contexts-ct1.json"), encoding: .utf8))
        ?? ""
    static let sampleID = "74DDB1F8-B6F2-1F71-69C4-291C85DE8EBC"

    /// The envelope of the sample event under `eventID`, with a `sent_at` header as an SDK sends.
    public static func bytes(eventID: String) -> [UInt8] {
        let item = Array(event.replacingOccurrences(of: sampleID, with: eventID).utf8)
        let header = #"{"event_id":"\#(eventID)","sent_at":"2026-11-26T00:00:00Z"}"#
        return Array(header.utf8) + [10] + Array(#"{"type":"event","length":\#(item.count)}"#.utf8) + [10] + item + [10]
    }

    /// Posts the envelope of `eventID` to `serve` with its first project's key, on a new connection.
    /// - Returns: the answer's status, or nil when the connection failed or ended without an answer.
    public static func post(eventID: String, to serve: ServeProcess) -> Int? {
        LoopbackConnection.request(
            port: serve.port, "POST", "/api/\(serve.projectID)/envelope/", headers: ["X-Sentry-Auth": "Sentry sentry_key=\(serve.key)"],
            body: bytes(eventID: eventID)
        )?.status
    }
}
