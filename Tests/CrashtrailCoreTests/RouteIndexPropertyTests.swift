import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `Manifest.destination(forURL:)` finds templates through an index by segment count and first segment; for
/// many seeded URLs it must return exactly what trying every template in routing priority returned
/// (``LinearURLMatcher``), on the sample manifests and on one built for the edge cases.
@Suite("Route index")
struct RouteIndexPropertyTests {
    /// Templates chosen for the edge cases: the more-literal-first rule against typed and untyped placeholders,
    /// dotted paths, a percent-encoded and a non-ASCII literal, case-sensitive path literals, templates without
    /// a host whose first segment is a placeholder, query literals against query placeholders, a second scheme
    /// and a template with no segment at all.
    static let edgeManifest = """
        app: com.example.edge
        root: start
        transitions: { modal: 0 }
        destinations:
          start:       { url: "edge://start" }
          byNumber:    { url: "edge://item/{n:int}" }
          byID:        { url: "edge://item/{id}" }
          featured:    { url: "edge://item/featured" }
          nested:      { url: "edge://deep/{a.b}/{a.c:int}" }
          nestedFixed: { url: "edge://deep/{x}/fixed" }
          menu:        { url: "edge://menu/caf%C3%A9/{dish}" }
          café:        { url: "edge://café" }
          upper:       { url: "edge://host/Path/{v}" }
          anything:    { url: "edge:///{anything}" }
          tail:        { url: "edge:///{a}/tail" }
          find:        { url: "edge://find?q={text}&page={p:int}" }
          findAll:     { url: "edge://find?q={text}&mode=all" }
          other:       { url: "other://item/{id}" }
          bare:        { url: "edge://" }
          noLink:      {}
        """

    static func manifests() throws -> [(name: String, manifest: Manifest)] {
        var manifests = [
            (
                "piratebay.yml",
                try Manifest(contentsOf: PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml"))
            ),
            ("harbor.yml", try Manifest(contentsOf: PackageRoot.url.appendingPathComponent("Samples/Harbor/harbor.yml"))),
            ("edge", try Manifest(yaml: edgeManifest)),
        ]
        manifests.append(("lighthouse.yml", try ConformanceSuite.required().manifest(named: "lighthouse.yml")))
        return manifests
    }

    @Test("the index returns what the linear scan returned, on 6,000 generated URLs per manifest")
    func indexAgreesWithLinearScan() throws {
        for (name, manifest) in try Self.manifests() {
            // Given a manifest, the reference matcher and seeded URLs built from its templates, then damaged
            let reference = LinearURLMatcher(manifest: manifest)
            var generator = URLGenerator(manifest: manifest, seed: 0xC0FF_EE00 &+ UInt64(name.utf8.count))
            var matched = 0
            var unmatched = 0
            for _ in 0..<6_000 {
                let url = generator.next()
                // When both resolve it
                let indexed = manifest.destination(forURL: url)
                let linear = reference.destination(forURL: url)
                // Then they agree, destination and payload
                #expect(indexed == linear, "\(name): \(url.debugDescription)")
                if linear == nil { unmatched += 1 } else { matched += 1 }
            }
            // and the URLs exercised both outcomes, so the comparison means something
            #expect(matched > 1_500 && unmatched > 1_500, "\(name): \(matched) matched, \(unmatched) unmatched")
        }
    }

    @Test(
        "the edge cases resolve as the routing rules say",
        arguments: [
            ("edge://item/featured", #"{"featured":{}}"#),
            ("EDGE://ITEM/featured", #"{"featured":{}}"#),
            ("edge:///item/featured", #"{"featured":{}}"#),
            ("edge://item/42", #"{"byNumber":{"n":42}}"#),
            ("edge://item/-7#top", #"{"byNumber":{"n":-7}}"#),
            ("edge://item/9223372036854775808", #"{"byID":{"id":"9223372036854775808"}}"#),
            ("edge://item/FEATURED", #"{"byID":{"id":"FEATURED"}}"#),
            ("edge://item/a%20b", #"{"byID":{"id":"a b"}}"#),
            ("edge://deep/x/3", #"{"nested":{"a":{"b":"x","c":3}}}"#),
            ("edge://deep/x/fixed", #"{"nestedFixed":{"x":"x"}}"#),
            ("edge://menu/café/soup", #"{"menu":{"dish":"soup"}}"#),
            ("edge://menu/cafe%CC%81/soup", #"{"menu":{"dish":"soup"}}"#),
            ("edge://CAFÉ", #"{"café":{}}"#),
            ("edge://host/Path/1", #"{"upper":{"v":"1"}}"#),
            ("edge://nowhere", #"{"anything":{"anything":"nowhere"}}"#),
            ("edge://item", #"{"anything":{"anything":"item"}}"#),
            ("edge://item/tail", #"{"byID":{"id":"tail"}}"#),
            ("edge://x/tail", #"{"tail":{"a":"x"}}"#),
            ("edge://find?page=2&q=rum", #"{"find":{"p":2,"text":"rum"}}"#),
            ("edge://find?q=rum&page=two", #"{"anything":{"anything":"find"}}"#),
            ("edge://find?q=rum&page=two&mode=all", #"{"findAll":{"text":"rum"}}"#),
            ("edge://", #"{"bare":{}}"#),
            ("edge://?x=1", #"{"bare":{}}"#),
            ("OTHER://item/1", #"{"other":{"id":"1"}}"#),
        ])
    func edgeCases(url: String, expected: String) throws {
        let manifest = try Manifest(yaml: Self.edgeManifest)
        #expect(manifest.destination(forURL: url)?.canonicalJSON == expected, "\(url)")
        #expect(LinearURLMatcher(manifest: manifest).destination(forURL: url)?.canonicalJSON == expected, "\(url)")
    }

    @Test(
        "URLs that name nothing match nothing",
        arguments: [
            "edge://host/path/1", "edge://item/1/2/3/4", "edge://u@item/1", "edge://item:80/1", "edge:/item/1",
            "edge://item/%zz", "edge://item/%FF", "edge://find/more?q=rum&page=2", "ftp://item/1", "",
        ])
    func unknownURLs(url: String) throws {
        let manifest = try Manifest(yaml: Self.edgeManifest)
        #expect(manifest.destination(forURL: url) == nil, "\(url)")
        #expect(LinearURLMatcher(manifest: manifest).destination(forURL: url) == nil, "\(url)")
    }

    @Test("a destination name is found by ==, as a dictionary finds it, Unicode equivalents included")
    func canonicallyEqualNames() throws {
        let manifest = try Manifest(
            yaml: Self.edgeManifest
                .replacingOccurrences(
                    of: "café:        { url: \"edge://café\" }", with: "café:        { url: \"edge://café\", presentation: modal }"))
        for name in ["café", "cafe\u{301}"] {
            var engine = NavigationEngine(manifest: manifest)
            let anomalies = engine.apply(Step(t: 0, .open(.destination(Destination(name)))))
            #expect(anomalies.isEmpty, "\(name.unicodeScalars.count) scalars")
            #expect(engine.state.modals.count == 1, "\(name.unicodeScalars.count) scalars: opened as the modal it is")
        }
    }
}

/// Seeded deep links over a manifest: the printed URLs of its templates filled with awkward values, then
/// changed in ways that may or may not still match (case, escapes, fragments, extra or missing segments and
/// query items, a port or user info, other schemes), and some random text.
private struct URLGenerator {
    let templates: [RouteTemplate]
    let literals: [String]
    private var random: SplitMix64

    static let values = [
        "L-42", "7", "0", "-0", "-17", "007", "12a", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "a b", "ø", "é", "e\u{301}", "", "-", "%", "%41", "%zz", "%C3%A9", "%FF", "?", "#", "&", "=", "/", ":", "@", "a.b", "~x_",
    ]

    init(manifest: Manifest, seed: UInt64) {
        templates = manifest.destinations.compactMap(\.route)
        var literals: [String] = []
        for template in templates {
            for part in template.segments + template.query.map(\.value) {
                if case .literal(let literal) = part { literals.append(literal) }
            }
            literals.append(template.scheme)
            literals += template.query.map(\.key)
        }
        self.literals = literals
        random = SplitMix64(seed: seed)
    }

    private mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// A value for a part: mostly its literal or a fitting value, sometimes anything, escaped or not.
    private mutating func text(for part: RouteTemplate.Part) -> String {
        var text: String
        switch (part, below(10)) {
        case (.literal(let literal), 0..<7): text = literal
        case (.placeholder(let placeholder), 0..<7):
            text = placeholder.type == .int ? String(Int64(below(2_000)) - 1_000) : "L-\(below(100))"
        default: text = below(2) == 0 ? pick(Self.values) : pick(literals)
        }
        switch below(8) {
        case 0: text = PercentEncoding.encode(text)
        case 1: text = text.uppercased()
        default: break
        }
        return text
    }

    mutating func next() -> String {
        if templates.isEmpty || below(20) == 0 { return randomText() }
        let template = pick(templates)
        var segments = template.segments.map { text(for: $0) }
        switch below(12) {
        case 0: segments.removeLast(min(1, segments.count))
        case 1: segments.append(text(for: .literal(pick(literals))))
        case 2: segments.shuffle(using: &random)
        default: break
        }
        var query = template.query.map { ($0.key, text(for: $0.value)) }
        switch below(10) {
        case 0: query.removeLast(min(1, query.count))
        case 1: query.append((pick(literals), text(for: .literal(pick(literals)))))
        case 2: query.shuffle(using: &random)
        case 3: if let first = query.first { query.append((first.0, "other")) }
        default: break
        }
        var scheme = below(15) == 0 ? pick(["other", "edge", "piratebay", "harbor", "lighthouse", "HTTP"]) : template.scheme
        if below(10) == 0 { scheme = scheme.uppercased() }
        let hostless = below(6) == 0
        var url = scheme + (hostless ? ":///" : "://") + segments.joined(separator: below(15) == 0 ? "//" : "/")
        if below(10) == 0 { url += "/" }
        if !query.isEmpty || below(10) == 0 {
            url += "?" + query.map { below(12) == 0 ? $0.0 : "\($0.0)=\($0.1)" }.joined(separator: below(12) == 0 ? "&&" : "&")
        }
        switch below(14) {
        case 0: url += "#" + pick(Self.values)
        case 1: url = url.replacingOccurrences(of: "://", with: "://user@")
        case 2:
            if let slash = url.range(of: "/", range: url.range(of: "://").map { $0.upperBound..<url.endIndex }) {
                url.insert(contentsOf: ":8080", at: slash.lowerBound)
            }
        case 3: url = String(url.prefix(below(url.count + 1)))
        case 4: url = url.replacingOccurrences(of: "://", with: ":/")
        default: break
        }
        return url
    }

    private mutating func randomText() -> String {
        let alphabet = Array("abcE1-/:?#&=%.~{}é\u{301}ø ")
        let prefix = pick(["edge://", "piratebay://", "harbor://", "", "x:", "://"])
        return prefix + String((0..<below(16)).map { _ in pick(alphabet) })
    }
}
