import CrashtrailCore
import CrashtrailTestSupport
import Testing

/// SPEC section 3: manifests load from YAML and JSON, and a manifest that cannot work is refused with the exact
/// problem, the destination and the line.
@Suite("Manifest")
struct ManifestTests {
    static let valid = SpecManifests.piratebay

    @Test("The spec's example manifest loads")
    func loadsYAML() throws {
        let manifest = try Manifest(yaml: Self.valid, source: "piratebay.yml")
        #expect(manifest.app == "com.example.piratebay")
        #expect(manifest.tabs == ["home", "marketplace", "myProfile"])
        #expect(manifest.modalTransition == 500)
        #expect(manifest.spec(named: "compose")?.presentation == .modal)
        #expect(manifest.spec(named: "compose")?.requires == ["signedIn"])
        #expect(manifest.spec(named: "myProfile")?.requires == ["signedIn"])
        #expect(manifest.spec(named: "welcome")?.gate == true)
        #expect(
            manifest.launchState.canonicalJSON
                == #"{"conditions":[],"modals":[],"pending":null,"stacks":[[{"home":{}}],[{"marketplace":{}}],[{"myProfile":{}}]],"tab":0}"#
        )
    }

    @Test("JSON manifests load the same way")
    func loadsJSON() throws {
        let json = """
            {"app": "org.example.lighthouse", "root": "splash", "transitions": {"modal": 0},
             "conditions": {"paired": {"flow": "pairing"}},
             "destinations": {"splash": {"url": "lighthouse://splash", "gate": true},
                              "lamp": {"url": "lighthouse://lamps/{serial}", "requires": "paired"},
                              "pairing": {"url": "lighthouse://pair", "presentation": "modal"}}}
            """
        let manifest = try Manifest(yaml: json, source: "lighthouse.json")
        #expect(manifest.root == "splash")
        #expect(!manifest.hasTabs)
        #expect(manifest.modalTransition == 0)
        #expect(manifest.launchState.stacks == [[Destination("splash")]])
    }

    /// A manifest that cannot work, what must be said about it, and where.
    struct Invalid: CustomTestStringConvertible, Sendable {
        let name: String
        let yaml: String
        let code: ManifestError.Code
        let destination: String?
        let line: Int?
        let mentions: String
        var testDescription: String { name }
    }

    static func manifest(_ destinations: String, conditions: String = "signedIn: { flow: login }", head: String = "tabs: [home]")
        -> String
    {
        "app: com.example.test\n\(head)\nconditions:\n  \(conditions)\ndestinations:\n  home: { url: \"t://home\" }\n  login: { url: \"t://login\", presentation: modal }\n\(destinations)"
    }

    static let invalid: [Invalid] = [
        Invalid(
            name: "unknown condition in requires", yaml: manifest("  item: { url: \"t://item/{id}\", requires: [signedIn, paid] }"),
            code: .unknownCondition, destination: "item", line: 8, mentions: "\"paid\""),
        Invalid(
            name: "condition without a flow", yaml: manifest("", conditions: "signedIn: {}"),
            code: .conditionWithoutFlow, destination: nil, line: 4, mentions: "signedIn"),
        Invalid(
            name: "flow that is no destination", yaml: manifest("", conditions: "signedIn: { flow: signIn }"),
            code: .invalidFlow, destination: nil, line: 4, mentions: "\"signIn\""),
        Invalid(
            name: "flow destination that is a gate",
            yaml: manifest("  gateFlow: { url: \"t://g\", gate: true }", conditions: "signedIn: { flow: gateFlow }"),
            code: .invalidFlow, destination: "gateFlow", line: 8, mentions: "gate"),
        Invalid(
            name: "flow destination that requires a condition",
            yaml: manifest(
                "  verify: { url: \"t://verify\", requires: signedIn }",
                conditions: "signedIn: { flow: login }\n  verified: { flow: verify }"),
            code: .invalidFlow, destination: "verify", line: 9, mentions: "requires"),
        Invalid(
            name: "flow destination with placeholders",
            yaml: manifest("  pin: { url: \"t://pin/{n}\" }", conditions: "signedIn: { flow: pin }"),
            code: .invalidFlow, destination: "pin", line: 8, mentions: "placeholders"),
        Invalid(
            name: "tab root that is no destination", yaml: manifest("", head: "tabs: [home, feed]"),
            code: .invalidTabRoot, destination: nil, line: 2, mentions: "\"feed\""),
        Invalid(
            name: "tab root with placeholders",
            yaml: manifest("  feed: { url: \"t://feed/{kind}\" }", head: "tabs: [home, feed]"),
            code: .invalidTabRoot, destination: "feed", line: 8, mentions: "placeholders"),
        Invalid(
            name: "root that is no destination", yaml: manifest("", head: "root: splash"),
            code: .invalidRoot, destination: nil, line: 2, mentions: "\"splash\""),
        Invalid(
            name: "root with placeholders", yaml: manifest("  splash: { url: \"t://splash/{v}\" }", head: "root: splash"),
            code: .invalidRoot, destination: "splash", line: 8, mentions: "placeholders"),
        Invalid(
            name: "root missing without tabs", yaml: manifest("", head: "transitions: { modal: 0 }"),
            code: .missingRoot, destination: nil, line: nil, mentions: "root"),
        Invalid(
            name: "two identical templates",
            yaml: manifest("  item: { url: \"t://item/{id}\" }\n  thing: { url: \"T://item/{key}\" }"),
            code: .duplicateTemplate, destination: "thing", line: 9, mentions: "\"item\""),
        Invalid(
            name: "template without a scheme", yaml: manifest("  item: { url: \"item/{id}\" }"),
            code: .invalidTemplate, destination: "item", line: 8, mentions: "scheme"),
        Invalid(
            name: "placeholder that fills part of a segment", yaml: manifest("  item: { url: \"t://item/id-{id}\" }"),
            code: .invalidTemplate, destination: "item", line: 8, mentions: "whole path segment"),
        Invalid(
            name: "placeholder of an unknown type", yaml: manifest("  item: { url: \"t://item/{id:float}\" }"),
            code: .invalidTemplate, destination: "item", line: 8, mentions: "float"),
        Invalid(
            name: "unclosed placeholder", yaml: manifest("  item: { url: \"t://item/{id\" }"),
            code: .invalidTemplate, destination: "item", line: 8, mentions: "{id"),
        Invalid(
            name: "the same value filled twice", yaml: manifest("  item: { url: \"t://item/{id}/{id}\" }"),
            code: .invalidTemplate, destination: "item", line: 8, mentions: "{id}"),
        Invalid(
            name: "unknown presentation", yaml: manifest("  item: { url: \"t://item\", presentation: sheet }"),
            code: .invalidField, destination: "item", line: 8, mentions: "sheet"),
        Invalid(
            name: "misspelled key", yaml: manifest("  item: { url: \"t://item\", presentaton: modal }"),
            code: .unknownKey, destination: "item", line: 8, mentions: "presentaton"),
        Invalid(
            name: "negative transition", yaml: manifest("", head: "tabs: [home]\ntransitions: { modal: -5 }"),
            code: .invalidField, destination: nil, line: nil, mentions: "-5"),
        Invalid(
            name: "not YAML at all", yaml: "app: [unclosed\n  destinations: {",
            code: .unreadable, destination: nil, line: 2, mentions: "YAML"),
        Invalid(
            name: "duplicate destination key", yaml: manifest("  home: { url: \"t://home2\" }"),
            code: .unreadable, destination: nil, line: 6, mentions: "home"),
        Invalid(
            name: "missing destinations", yaml: "app: x\ntabs: [home]\n",
            code: .invalidField, destination: nil, line: 1, mentions: "destinations"),
    ]

    @Test("A manifest that cannot work is refused with its own error", arguments: invalid)
    func refuses(_ invalid: Invalid) throws {
        let error = try #require(throws: ManifestError.self) { try Manifest(yaml: invalid.yaml, source: "app.yml") }
        #expect(error.code == invalid.code)
        #expect(error.destination == invalid.destination)
        if let line = invalid.line { #expect(error.line == line, "\(error)") }
        #expect(error.description.contains(invalid.mentions), "\(error)")
        #expect(error.description.hasPrefix("app.yml"), "\(error)")
    }
}
