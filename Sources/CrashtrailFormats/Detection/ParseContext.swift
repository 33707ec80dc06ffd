import Foundation

/// What a format parser reads besides the payload's bytes, handed to it in its signature: the structure an earlier
/// validation of exactly those bytes found, whether breadcrumbs are wanted, and which JSON decoder reads the payload.
///
/// ```swift
/// let context = ParseContext(readsBreadcrumbs: codec.namesScreens, structure: validated.structure)
/// let payloads = try PayloadParser.parse(bytes, as: .sentryEvent, context: context)
/// ```
package struct ParseContext {
    /// Which decoder reads payloads.
    package enum Engine: Sendable {
        /// `SkimmingDecoder`: validates the whole text, materializes only what the types read.
        case skimming
        /// Foundation's `JSONDecoder`, which crashtrail used before; tests compare the two.
        case foundation
    }

    /// Whether the payload's breadcrumbs are read (SPEC section 15): some manifest names screens to infer a trail with.
    ///
    /// A Sentry event often holds a hundred, so they cost nothing until a team uses them.
    var readsBreadcrumbs: Bool
    /// The decoder that reads the payload.
    var engine: Engine
    /// What `JSONValidator` found when it validated exactly the bytes being parsed (format detection does, for an input
    /// that is one JSON object), so the decoding does not validate them again; nil validates them.
    var structure: JSONStructure?
    /// The framing of a Sentry envelope read from exactly the bytes being parsed; nil reads it.
    ///
    /// `serve` reads it for the key and the limits before it parses, so the parse does not read it again. It was read
    /// with the skimming decoder, whatever ``engine`` says.
    var envelope: SentryEnvelopeSummary?

    /// - Parameters:
    ///   - readsBreadcrumbs: whether breadcrumbs are read.
    ///   - engine: the decoder.
    ///   - structure: the validated structure of exactly the bytes to parse, if known.
    ///   - envelope: the framing of exactly the bytes to parse, when they are a Sentry envelope whose framing is known.
    package init(
        readsBreadcrumbs: Bool = false, engine: Engine = .skimming, structure: JSONStructure? = nil,
        envelope: SentryEnvelopeSummary? = nil
    ) {
        self.readsBreadcrumbs = readsBreadcrumbs
        self.engine = engine
        self.structure = structure
        self.envelope = envelope
    }

    /// This context for a part of the bytes (an envelope's item, an `.ips` header line): the structure and framing
    /// found for the whole do not describe a part.
    var forPart: ParseContext {
        var part = self
        part.structure = nil
        part.envelope = nil
        return part
    }

    /// The key under which the decoders hand ``readsBreadcrumbs`` to the payload types' `init(from:)` (Foundation's
    /// initializer is failable, though no key is refused).
    static let readsBreadcrumbsKey = CodingUserInfoKey(rawValue: "crashtrail.readsBreadcrumbs")

    /// What the decoders pass to the payload types as `Decoder.userInfo`.
    var userInfo: [CodingUserInfoKey: any Sendable] {
        guard let key = Self.readsBreadcrumbsKey else { return [:] }
        return [key: readsBreadcrumbs]
    }
}

extension Decoder {
    /// Whether the payload being decoded wants its breadcrumbs read (``ParseContext/readsBreadcrumbs``).
    var readsBreadcrumbs: Bool {
        guard let key = ParseContext.readsBreadcrumbsKey else { return false }
        return userInfo[key] as? Bool ?? false
    }
}
