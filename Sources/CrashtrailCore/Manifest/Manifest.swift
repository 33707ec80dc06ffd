/// An app's route table (SPEC section 3): every destination, its deep-link template, how it is shown and what
/// it requires.
///
/// Build one with ``Manifest/init(yaml:source:)`` (YAML or JSON), which refuses a manifest
/// that cannot work.
public struct Manifest: Sendable {
    /// Everything the manifest holds, built once and never changed: engines, replayers and codecs each keep a
    /// copy of the manifest, and copying it copies this one reference.
    private let storage: Storage

    /// The app's bundle ID.
    public var app: String { storage.app }
    /// Tab roots in order; empty for an app without a tab bar.
    public var tabs: [String] { storage.tabs }
    /// The launch destination when there are no tabs.
    public var root: String? { storage.root }
    /// How long a modal present or dismiss lasts, in milliseconds; 0 means no collisions.
    public var modalTransition: Int64 { storage.modalTransition }
    /// Conditions in manifest order.
    public var conditions: [Condition] { storage.conditions }
    /// Destinations in manifest order.
    public var destinations: [DestinationSpec] { storage.destinations }
    /// Where the manifest came from (a file path), for messages.
    public var source: String { storage.source }
    /// What replaying with this manifest depends on, as 16 lower-case hex digits: a hash of its canonical document,
    /// computed once, when the manifest is built (``ScreenPath``).
    package private(set) var fingerprint = ""

    /// What the navigation rules need of each destination, and each destination's index, by name.
    ///
    /// Kept beside `storage` rather than in it: the engine reaches it on every request, and a reference held
    /// directly in the engine's own value needs no retain around the call.
    let rules: NavigationRules
    /// The deep-link templates arranged for matching: by segment count and first segment, in routing priority.
    let routeIndex: RouteIndex
    /// One stack per tab holding its root, as at launch; a gate resets the stacks to these.
    var tabStacks: [[Destination]] { storage.tabStacks }

    private final class Storage: Sendable {
        let app: String
        let tabs: [String]
        let root: String?
        let modalTransition: Int64
        let conditions: [Condition]
        let destinations: [DestinationSpec]
        let source: String
        let conditionIndex: [String: Int]
        let tabIndex: [String: Int]
        /// Names of destinations that are some condition's flow.
        let flowNames: Set<String>
        let tabStacks: [[Destination]]
        /// Each screen name, and the same without its module prefix, to its destination's index.
        let screenIndex: [String: Int]

        init(
            app: String, tabs: [String], root: String?, modalTransition: Int64, conditions: [Condition],
            destinations: [DestinationSpec], source: String, screenIndex: [String: Int]
        ) {
            self.screenIndex = screenIndex
            self.app = app
            self.tabs = tabs
            self.root = root
            self.modalTransition = modalTransition
            self.conditions = conditions
            self.destinations = destinations
            self.source = source
            self.conditionIndex = Dictionary(conditions.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
            self.tabIndex = Dictionary(tabs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            self.flowNames = Set(conditions.map(\.flow))
            self.tabStacks = tabs.map { [Destination($0)] }
        }
    }

    /// A condition and the flow destination presented when it is missing.
    public struct Condition: Hashable, Sendable {
        public let name: String
        public let flow: String
    }

    /// How a destination is shown when it is opened.
    public enum Presentation: String, Hashable, Sendable {
        case push
        case modal
    }

    /// One destination of the route table.
    public struct DestinationSpec: Hashable, Sendable {
        /// The fields, never changed once read: a spec is copied with every lookup, and copying one reference
        /// costs less than copying each string and array.
        private let storage: Storage

        public var name: String { storage.name }
        /// The deep-link template, nil when the screen has no deep link.
        package var route: RouteTemplate? { storage.route }
        /// The deep-link template's text when it has no placeholder, for the fuzz targets.
        @_spi(Fuzzing) public var literalRoute: String? {
            storage.route.flatMap { $0.placeholders.isEmpty ? $0.text : nil }
        }
        public var presentation: Presentation { storage.presentation }
        /// Conditions, checked in order.
        public var requires: [String] { storage.requires }
        public var gate: Bool { storage.gate }
        /// Payload paths whose values never leave the device (SPEC section 12), each split at its dots, in manifest
        /// order: the recorder replaces them with keyed stand-ins.
        public var redact: [[String]] { storage.redact }
        /// The names a crash reporter's breadcrumbs give this screen (`screen:` / `screens:`, SPEC section 15): a
        /// UIKit class name (with or without its module), a SwiftUI view name, an Analytics screen name.
        public var screens: [String] { storage.screens }

        init(
            name: String, route: RouteTemplate?, presentation: Presentation, requires: [String], gate: Bool, redact: [[String]] = [],
            screens: [String] = []
        ) {
            storage = Storage(
                name: name, route: route, presentation: presentation, requires: requires, gate: gate, redact: redact, screens: screens)
        }

        private final class Storage: Sendable {
            let name: String
            let route: RouteTemplate?
            let presentation: Presentation
            let requires: [String]
            let gate: Bool
            let redact: [[String]]
            let screens: [String]

            init(
                name: String, route: RouteTemplate?, presentation: Presentation, requires: [String], gate: Bool, redact: [[String]],
                screens: [String]
            ) {
                self.name = name
                self.route = route
                self.presentation = presentation
                self.requires = requires
                self.gate = gate
                self.redact = redact
                self.screens = screens
            }
        }

        /// Equal when every field is, as a synthesized `==` would compare them.
        public static func == (lhs: DestinationSpec, rhs: DestinationSpec) -> Bool {
            if lhs.storage === rhs.storage { return true }
            return lhs.name == rhs.name && lhs.route == rhs.route && lhs.presentation == rhs.presentation
                && lhs.requires == rhs.requires && lhs.gate == rhs.gate && lhs.redact == rhs.redact && lhs.screens == rhs.screens
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(route)
            hasher.combine(presentation)
            hasher.combine(requires)
            hasher.combine(gate)
            hasher.combine(redact)
            hasher.combine(screens)
        }
    }

    /// Builds and checks a manifest.
    /// - Throws: `ManifestError` naming the destination and the problem.
    package init(
        app: String, tabs: [String] = [], root: String? = nil, modalTransition: Int64 = 500,
        conditions: [Condition] = [], destinations: [DestinationSpec], source: String = "manifest",
        lines: ManifestLines = ManifestLines()
    ) throws(ManifestError) {
        var names: Set<String> = []
        for spec in destinations where !names.insert(spec.name).inserted {
            throw ManifestError(
                .duplicateDestination, source: source, line: lines.destinations[spec.name], destination: spec.name,
                "destination \"\(spec.name)\" is declared twice")
        }
        let storage = Storage(
            app: app, tabs: tabs, root: root, modalTransition: modalTransition, conditions: conditions,
            destinations: destinations, source: source,
            screenIndex: try Self.screenIndex(of: destinations, source: source, lines: lines))
        self.storage = storage
        self.rules = NavigationRules(destinations: destinations, conditions: conditions, tabIndex: storage.tabIndex)
        self.routeIndex = RouteIndex(destinations: destinations)
        try ManifestValidator(manifest: self, lines: lines).validate()
        fingerprint = ScreenPath.fingerprint(ofDocument: documentText)
    }

    /// The spec of the destination named `name`.
    public func spec(named name: String) -> DestinationSpec? {
        rules.index(named: name).map { storage.destinations[$0] }
    }

    /// The condition named `name`.
    public func condition(named name: String) -> Condition? {
        storage.conditionIndex[name].map { storage.conditions[$0] }
    }

    /// The tab index of a tab root.
    public func tabIndex(of name: String) -> Int? {
        storage.tabIndex[name]
    }

    /// Whether the app shows a tab bar at launch.
    public var hasTabs: Bool { !tabs.isEmpty }

    /// The state at launch: with tabs, tab 0 and each stack its root; without, the single stack `[root]`.
    public var launchState: NavigationState {
        if hasTabs {
            return NavigationState(tab: 0, stacks: tabStacks)
        }
        return NavigationState(tab: nil, stacks: [[Destination(root ?? "")]])
    }

    /// The destination a crash reporter's screen name names (SPEC section 15), matched as the manifest writes it or
    /// without a module prefix on either side (`App.ItemViewController`, `ItemViewController`).
    package func destination(forScreen name: String) -> DestinationSpec? {
        let index = storage.screenIndex[name] ?? storage.screenIndex[Self.unprefixed(name)]
        return index.map { storage.destinations[$0] }
    }

    /// Whether `name` is the flow of some condition.
    public func isFlow(_ name: String) -> Bool {
        storage.flowNames.contains(name)
    }
}

/// Where the manifest's parts were declared, for error messages.
package struct ManifestLines: Sendable {
    package var destinations: [String: Int] = [:]
    package var conditions: [String: Int] = [:]
    package var tabs: Int?
    package var root: Int?
    package init() {}
}
