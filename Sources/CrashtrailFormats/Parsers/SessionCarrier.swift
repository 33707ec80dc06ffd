/// Where the recorder's session ID rides in a crash reporter's payload (SPEC section 18): the recorder hands it to the
/// reporter at launch, and a crash that carries it joins the trail of that very session.
///
/// - Sentry: the tag `crashtrail.session`, or `contexts.crashtrail.session` (and in SentryCrash's saved scope);
/// - Crashlytics: the custom key `crashtrail.session`;
/// - KSCrash: `user.crashtrail_session`.
enum SessionCarrier {
    /// The Sentry tag and Crashlytics key.
    static let key = "crashtrail.session"
    /// The longest session ID kept; a longer value is no recorder's and is ignored.
    static let maximumLength = 128

    /// A carried value as a session ID: trimmed, non-empty and at most ``maximumLength`` characters, else nil.
    static func sessionID(_ value: String?) -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty,
            trimmed.utf8.count <= maximumLength
        else { return nil }
        return trimmed
    }
}

/// A Sentry event's `tags`, as an object of strings or as Sentry's list of `[key, value]` pairs, read only for the
/// session tag.
struct SentrySessionTag: Decodable {
    var session: String?

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            session = object.lenient(LooseScalar.self, AnyCodingKey(stringValue: SessionCarrier.key))?.string
            return
        }
        var pairs = try decoder.unkeyedContainer()
        while !pairs.isAtEnd {
            guard let pair = try? pairs.decode([LooseScalar].self) else {
                _ = try? pairs.decode(LooseScalar.self)
                continue
            }
            if pair.count == 2, pair[0].string == SessionCarrier.key { session = pair[1].string }
        }
    }
}
