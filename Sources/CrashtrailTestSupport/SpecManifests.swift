/// Manifests the SPEC itself shows, for tests in every target.
public enum SpecManifests {
    /// The example manifest of SPEC section 3 (PirateBay).
    public static let piratebay = """
        app: com.example.piratebay
        tabs: [home, marketplace, myProfile]
        transitions: { modal: 500 }
        conditions:
          signedIn: { flow: login }
        destinations:
          home:        { url: "piratebay://home" }
          marketplace: { url: "piratebay://marketplace" }
          myProfile:   { url: "piratebay://me", requires: signedIn }
          item:        { url: "piratebay://item/{id}" }
          order:       { url: "piratebay://orders/{id.rawValue}?tab=summary" }
          search:      { url: "piratebay://search?q={text}" }
          compose:     { url: "piratebay://pirate/{id}/message", presentation: modal, requires: [signedIn] }
          login:       { url: "piratebay://login", presentation: modal }
          welcome:     { url: "piratebay://welcome", gate: true }
        """
}
