import CrashtrailCore

/// The manifests the entry points decode and route against: small, written for fuzzing, and covering what
/// templates can do (tabs, conditions, a nested placeholder, an integer placeholder, literal and placeholder
/// query values, a host-less template, escapes in literals).
public enum FuzzManifests {
    /// An app with tabs, in YAML.
    public static let tabsYAML = """
        app: com.example.fuzzboat
        tabs: [home, market, me]
        transitions: { modal: 300 }
        conditions:
          signedIn: { flow: login }
        destinations:
          home:    { url: "fuzzboat://home" }
          market:  { url: "fuzzboat://market" }
          me:      { url: "fuzzboat://me", requires: signedIn }
          item:    { url: "fuzzboat://item/{id}" }
          order:   { url: "fuzzboat://orders/{id.rawValue}?tab=summary" }
          lines:   { url: "fuzzboat://orders/{id.rawValue}?tab=lines" }
          page:    { url: "fuzzboat://market/page/{n:int}" }
          search:  { url: "fuzzboat://search?q={text}&sort={order}" }
          special: { url: "fuzzboat://item/new%2Fold" }
          compose: { url: "fuzzboat://pirate/{id}/message", presentation: modal, requires: [signedIn] }
          login:   { url: "fuzzboat://login", presentation: modal }
          splash:  { url: "fuzzboat://splash", gate: true }
          hidden:  {}
        """

    /// An app without tabs, in JSON (manifests may be JSON too).
    public static let rootJSON = """
        {"app": "com.example.lamp", "root": "start",
         "destinations": {
           "start": {"url": "lamp:///start"},
           "room": {"url": "lamp:///room/{floor:int}/{name}"},
           "note": {"url": "lamp:///note?id={id:int}"}
         }}
        """

    /// Both manifests, parsed.
    ///
    /// Traps if they stop loading: that is a bug in the fuzz package, not an input.
    public static let all: [Manifest] = {
        do {
            return [try Manifest(yaml: tabsYAML, source: "fuzzboat.yml"), try Manifest(yaml: rootJSON, source: "lamp.json")]
        } catch {
            fatalError("the fuzz manifests do not load: \(error)")
        }
    }()
}
