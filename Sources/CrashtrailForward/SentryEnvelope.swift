import Foundation

/// Sentry's envelope framing, both ways: the one an event is sent in, and finding the event in a stored Sentry payload.
package enum SentryEnvelope {
    /// An envelope of one event item.
    package static func envelope(eventID: String, event: [UInt8], sentAt: String) -> [UInt8] {
        Array(#"{"event_id":"\#(eventID)","sent_at":"\#(sentAt)"}"#.utf8) + [0x0A]
            + Array(#"{"type":"event","length":\#(event.count),"content_type":"application/json"}"#.utf8) + [0x0A] + event + [0x0A]
    }

    /// The event object in a stored Sentry payload: the payload itself (a bare event, as the store endpoint takes it),
    /// or the `event` item of an envelope (the one whose `event_id` is `eventID` when there are several).
    ///
    /// Only the members ``SentryEventBuilder`` reads are parsed; the others are kept as the bytes that wrote them.
    /// - Returns: nil when the payload holds no event object.
    package static func event(in payload: [UInt8], eventID: String) -> EventObject? {
        let members = SentryEventBuilder.readMembers
        if let object = (try? EventJSON.parse(payload, readingMembers: members))?.object { return object }
        var events: [EventObject] = []
        var index = payload.startIndex
        // Skip the envelope header line.
        guard let headerEnd = payload[index...].firstIndex(of: 0x0A) else { return nil }
        index = headerEnd + 1
        while index < payload.endIndex {
            let lineEnd = payload[index...].firstIndex(of: 0x0A) ?? payload.endIndex
            let headerBytes = payload[index..<lineEnd]
            index = min(payload.endIndex, lineEnd + 1)
            if headerBytes.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            guard let header = (try? EventJSON.parse(Array(headerBytes)))?.object else { return nil }
            let body: ArraySlice<UInt8>
            if let length = header["length"]?.double.map(Int.init), length >= 0, length <= payload.endIndex - index {
                body = payload[index..<(index + length)]
                index += length
                if index < payload.endIndex, payload[index] == 0x0A { index += 1 }
            } else {
                let end = payload[index...].firstIndex(of: 0x0A) ?? payload.endIndex
                body = payload[index..<end]
                index = min(payload.endIndex, end + 1)
            }
            if header["type"]?.string == "event", let object = (try? EventJSON.parse(Array(body), readingMembers: members))?.object {
                events.append(object)
            }
        }
        let wanted = eventID.lowercased().filter { $0 != "-" }
        return events.first { $0["event_id"]?.string?.lowercased().filter { $0 != "-" } == wanted } ?? events.first
    }
}
