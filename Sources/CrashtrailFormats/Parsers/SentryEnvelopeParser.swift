// swift-format-ignore-file: AlwaysUseLowerCamelCase

// The payload structs name their properties as the format names its JSON keys (snake_case), so the skimming decoder
// reads each key without a CodingKeys table.
import CrashtrailCore

/// Reads a Sentry envelope: a header line, then items, each a header line and a payload framed by the header's
/// `length` (a missing `length` means "up to the next newline").
///
/// Every `event` item becomes a report; an attachment named `crashtrail.ctr` (binary) or `crashtrail.json` carries the
/// trail.
enum SentryEnvelopeParser {
    private struct EnvelopeHeader: Decodable {
        var event_id: String?
        var dsn: String?
    }
    private struct ItemHeader: Decodable {
        var type: String?
        var length: Int?
        var filename: String?
    }

    /// - Throws: `RejectionError` (`invalid-envelope`) naming the broken item.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, context: ParseContext) throws(RejectionError) -> [ParsedPayload] {
        // The framing a collector read from these bytes already (``SentryEnvelopeSummary``) is not read again.
        let framing: SentryEnvelopeSummary
        if let known = context.envelope, known.frames(bytes.count) {
            framing = known
        } else {
            framing = try Self.framing(bytes, context: context.forPart)
        }
        // Every part is decoded alone: the envelope as a whole is no JSON document.
        let context = context.forPart
        let items = framing.items
        let eventID = framing.eventID.flatMap(SentryEventParser.normalizedEventID)
        var trail: TrailCarrier?
        for item in items where item.type == "attachment" {
            if item.filename == "crashtrail.ctr" || item.filename == "crashtrail.json" {
                trail = .bytes(Array(bytes[item.payload]))
            }
        }
        var reports: [ParsedPayload] = []
        let events = items.enumerated().filter { $0.element.type == "event" }
        guard !events.isEmpty else {
            let types = items.map(\.type).joined(separator: ", ")
            throw RejectionError(.invalidEnvelope, "the Sentry envelope holds no event item (items: \(types.isEmpty ? "none" : types))")
        }
        for (index, item) in events {
            var parsed: ParsedPayload
            do {
                parsed = try SentryEventParser.parse(
                    UnsafeBufferPointer(rebasing: bytes[item.payload]), what: "the envelope's event item \(index)", context: context)
            } catch {
                throw RejectionError(
                    .invalidEnvelope,
                    "item \(index) (event, \(item.payload.count) bytes) is not a usable Sentry event: \(error.message)")
            }
            parsed.format = .sentryEnvelope
            if parsed.payloadID == nil, events.count == 1 { parsed.payloadID = eventID }
            let ownsAttachments = events.count == 1 || parsed.payloadID == eventID
            if parsed.trail == nil, ownsAttachments { parsed.trail = trail }
            parsed.identityRange = events.count == 1 ? nil : item.payload
            reports.append(parsed)
        }
        return reports
    }

    /// The envelope's header and its items' types and sizes, without parsing any item.
    /// - Throws: `RejectionError` (`invalid-envelope`) when the framing is broken.
    static func summary(_ bytes: UnsafeBufferPointer<UInt8>) throws(RejectionError) -> SentryEnvelopeSummary {
        try framing(bytes, context: ParseContext())
    }

    /// The envelope's header and its items, each line decoded with `context`.
    private static func framing(
        _ bytes: UnsafeBufferPointer<UInt8>, context: ParseContext
    ) throws(RejectionError) -> SentryEnvelopeSummary {
        let (headerLine, afterHeader) = line(in: bytes, from: 0)
        let header = try decode(EnvelopeHeader.self, bytes, headerLine, what: "the envelope header line", context: context)
        let items = try frame(bytes, from: afterHeader, context: context)
        return SentryEnvelopeSummary(eventID: header.event_id, dsn: header.dsn, items: items, byteCount: bytes.count)
    }

    /// Splits the items after the envelope header.
    /// - Throws: `RejectionError` (`invalid-envelope`) when an item header is not JSON or a `length` runs past
    ///   the end.
    static func frame(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, context: ParseContext
    ) throws(RejectionError) -> [SentryEnvelopeSummary.Item] {
        var items: [SentryEnvelopeSummary.Item] = []
        var index = start
        while index < bytes.count {
            let (headerLine, afterHeader) = line(in: bytes, from: index)
            if headerLine.allSatisfy({ JSONBytes.isWhitespace(bytes[$0]) }) {
                index = afterHeader
                continue
            }
            let itemHeader = try decode(ItemHeader.self, bytes, headerLine, what: "the header of item \(items.count)", context: context)
            guard let type = itemHeader.type else {
                throw RejectionError(.invalidEnvelope, "the header of envelope item \(items.count) has no \"type\"")
            }
            let payload: Range<Int>
            if let length = itemHeader.length {
                guard length >= 0, length <= bytes.count - afterHeader else {
                    throw RejectionError(
                        .invalidEnvelope,
                        "envelope item \(items.count) (\(type)) declares length \(length), but only \(bytes.count - afterHeader) bytes follow its header"
                    )
                }
                payload = afterHeader..<(afterHeader + length)
                index = payload.upperBound
                if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
            } else {
                let (payloadLine, next) = line(in: bytes, from: afterHeader)
                payload = payloadLine
                index = next
            }
            items.append(SentryEnvelopeSummary.Item(type: type, payload: payload, filename: itemHeader.filename))
        }
        return items
    }

    /// The line starting at `start` (without its newline) and where the next one starts.
    private static func line(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Range<Int>, Int) {
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        return (start..<end, min(end + 1, bytes.count))
    }

    private static func decode<T: Decodable>(
        _ type: T.Type, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, what: String, context: ParseContext
    ) throws(RejectionError) -> T {
        do {
            return try PayloadDecoder.decode(type, from: UnsafeBufferPointer(rebasing: bytes[range]), what: what, context: context)
        } catch {
            throw RejectionError(.invalidEnvelope, "the Sentry envelope's framing is broken: \(error.message)")
        }
    }
}
