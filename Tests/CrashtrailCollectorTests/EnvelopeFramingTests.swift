import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailFormats

/// The framing `serve` reads from an envelope for its key and limits (`SentryEnvelopeSummary`), handed to the parse so
/// that it is not read twice: the parse must come out the same as from the bytes alone.
@Suite("Envelope framing handed to the parse")
struct EnvelopeFramingTests {
    /// Two events (one without `length`), a trail attachment and a session.
    static let assembled: [UInt8] = {
        let first = #"{"event_id":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","exception":{"values":[{"type":"A"}]}}"#
        let second = #"{"event_id":"bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb","exception":{"values":[{"type":"B"}]}}"#
        let trail = #"{"not":"a trail"}"#
        let session = #"{"sid":"s","status":"ok","started":"2026-01-01T00:00:00Z"}"#
        return Array(
            """
            {"event_id":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","dsn":"http://key@127.0.0.1/1"}
            {"type":"event","length":\(first.utf8.count)}
            \(first)
            {"type":"attachment","filename":"crashtrail.json","length":\(trail.utf8.count)}
            \(trail)
            {"type":"session"}
            \(session)
            {"type":"event"}
            \(second)

            """.utf8)
    }()

    /// What parsing `bytes` gives, or the refusal's message: printed whole, so that any field that differs shows.
    static func parsed(_ bytes: [UInt8], context: ParseContext) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            do throws(RejectionError) {
                return "\(try PayloadParser.parse(buffer, as: .sentryEnvelope, context: context).payloads)"
            } catch {
                return "refused: \(error.message)"
            }
        }
    }

    static func summary(_ bytes: [UInt8]) throws -> SentryEnvelopeSummary {
        try bytes.withUnsafeBufferPointer { try SentryEnvelopeSummary($0) }
    }

    @Test("Envelopes parse the same with their framing handed over as without it")
    func sameWithFraming() throws {
        var envelopes: [(String, [UInt8])] = [("assembled", Self.assembled)]
        envelopes.append(
            (
                "sample",
                [UInt8](
                    try Data(contentsOf: TestFiles.samples.appendingPathComponent("reports/sentry-envelope-binary-attachment.envelope")))
            ))
        for (name, bytes) in envelopes {
            let framing = try Self.summary(bytes)
            let alone = Self.parsed(bytes, context: ParseContext(readsBreadcrumbs: true))
            #expect(!alone.hasPrefix("refused"), "\(name): \(alone)")
            #expect(Self.parsed(bytes, context: ParseContext(readsBreadcrumbs: true, envelope: framing)) == alone, "\(name)")
        }
        let framing = try Self.summary(Self.assembled)
        #expect(framing.items.map(\.filename) == [nil, "crashtrail.json", nil, nil])
    }

    @Test("A public envelope whose event is cut short is refused the same, naming the item", .needsFixtures)
    func refusedTheSame() throws {
        let bytes = [UInt8](
            try Data(
                contentsOf: try TestFiles.requiredFixtures().appendingPathComponent(
                    "sentry/sentry-java-envelope-event-2attachments.envelope")
            ))
        let alone = Self.parsed(bytes, context: ParseContext())
        #expect(alone.contains("item 0 (event, 107 bytes)"))
        #expect(Self.parsed(bytes, context: ParseContext(envelope: try Self.summary(bytes))) == alone)
    }

    @Test("A framing read from bytes of another length is not used: they are framed again")
    func framingOfOtherBytesIsIgnored() throws {
        let longer = try Self.summary(Self.assembled)
        let short = Array(
            "{}\n{\"type\":\"event\"}\n{\"event_id\":\"cccccccccccccccccccccccccccccccc\",\"exception\":{\"values\":[{\"type\":\"C\"}]}}\n"
                .utf8)
        let alone = Self.parsed(short, context: ParseContext())
        #expect(alone.contains("C"))
        #expect(Self.parsed(short, context: ParseContext(envelope: longer)) == alone)
        // A framing is taken only for bytes of the length it was read from: longer bytes, whose items it would all lie
        // within, are framed again too
        let shorter = try Self.summary(short)
        #expect(shorter.frames(short.count))
        #expect(!shorter.frames(short.count + 8))
        #expect(!longer.frames(short.count))
    }
}
