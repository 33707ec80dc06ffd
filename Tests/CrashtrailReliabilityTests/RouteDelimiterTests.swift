import CrashtrailCore
import Foundation
import Testing

/// Deep-link templates whose delimiters are followed by combining marks (finding F10, found by `fuzz-manifest`).
///
/// A template was split by Characters, where "&" or "?" followed by a combining mark is one grapheme, while
/// deep links are split by UTF-8 bytes; a destination's own URL then resolved to nothing.
@Suite("Route delimiters next to combining marks")
struct RouteDelimiterTests {
    static let templates = [
        "app:///note?a&\u{301}b=", "app:///note?x=\u{301}", "app:///note?\u{301}b=1", "app:///n/\u{301}x/{id}",
        "app://h/a?k=\u{301}&j={v}", "app://h/x\u{301}/{id}?q={text}", "app://h/{id}?k=v&\u{301}=w", "app:///p/%41\u{301}",
    ]

    /// Checks the routing invariants for the URL of every destination whose template has no placeholder, and for
    /// a filled-in URL of the others.
    static func expectRoundTrips(_ manifest: Manifest, _ what: String) {
        for spec in manifest.destinations {
            guard let route = spec.route else { continue }
            var payload: [String: JSONValue] = [:]
            for placeholder in route.placeholders {
                payload[placeholder.path[0]] = placeholder.path.count > 1 ? .object([placeholder.path[1]: .string("v")]) : .string("v")
            }
            let destination = Destination(spec.name, payload)
            guard let url = manifest.url(for: destination) else {
                Issue.record("\(what): \(spec.name) has no URL")
                continue
            }
            let resolved = manifest.destination(forURL: url)
            #expect(resolved == destination, "\(what): \(url.debugDescription) resolves to \(String(describing: resolved))")
        }
    }

    @Test("Each template's URLs resolve back to their destination", arguments: templates)
    func roundTrip(_ template: String) throws {
        let json = CanonicalJSON.string(
            of: .object([
                "app": .string("a"), "root": .string("start"),
                "destinations": .object(["start": .object([:]), "target": .object(["url": .string(template)])]),
            ]))
        let manifest = try Manifest(yaml: json)
        Self.expectRoundTrips(manifest, template.debugDescription)
    }

    @Test("The manifest fuzz-manifest found loads and its URLs resolve back")
    func fuzzerFinding() throws {
        let bytes = try #require(
            Data(
                base64Encoded: [
                    "eyJhcHAiOiAiY29tLnAiLCAicm9vdCI6ICJzdGFydCIsCiAiZGVzdGluYXRpb25zIjogewogICAic3RhcnQiOiB7InVybCI6",
                    "IHA6Ly8vc3RBcnQifSwKICAgInJvb20iOiB7InVybCI6ICJsYW1wOi8vL3Jvb20ve2Zsb29ybnR9L3tuYW1lfSJ9LAogICAi",
                    "bm90ZSI6IHsidXJsIjogImxhbXA6Ly8vbm90ZT9pZD0vc3RhckRvdWJsdGlhcHA6IGNvbS5leHRpYXBwOiBjb20uZXhhbXBs",
                    "ZS5mdXp6Ym9hdAp0YXM6ICZicDpAW2hvbXBsZS5mdUB6Ym9wbGUucm9vdDpmdXoKb2F0YnphdGJzOiAmbVNTU1NTU1NTU1NT",
                    "eHJ0YWJzOmxTU3omb2F0CnRhYnM6ICZ6Cm9hdGJ6YXRiczogJm06ICZtYXRiczogJm1TU1NTU1NhdGJ6YXQKdGFiczogeibW",
                    "m+96Cm/Q0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0GF0YnphdGJzOiAmbW1TU1NTJVNT",
                    "U1NTU1NldCJ9LAogCiB9fQ==",
                ].joined()))
        let manifest = try Manifest(yaml: String(decoding: bytes, as: UTF8.self))
        let url = try #require(manifest.url(for: Destination("note")))
        #expect(manifest.destination(forURL: url) == Destination("note"), "\(url.debugDescription)")
    }
}
