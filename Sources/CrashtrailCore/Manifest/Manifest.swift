/// An app's route table (SPEC section 3): every destination, its deep-link template, how it is shown and what
/// it requires.
///
/// Build one with ``Manifest/init(yaml:source:)`` (YAML or JSON), which refuses a manifest
/// that cannot work.
public struct Manifest: Sendable {
    /// The app's bundle ID.
    public let app: String
    /// Tab roots in order; empty for an app without a tab bar.
    public let tabs: [String]
    /// The launch destination when there are no tabs.
    public let root: String?
    /// How long a modal present or dismiss lasts, in milliseconds; 0 means no collisions.
    public let modalTransition: Int64
    /// Conditions in manifest order.
    public let conditions: [Condition]
    /// Destinations in manifest order.
    public let destinations: [DestinationSpec]
    /// Where the manifest came from (a file path), for messages.
    public let source: String

    let destinationIndex: [String: Int]
    let conditionIndex: [String: Int]
    let tabIndex: [String: Int]
    /// Names of destinations that are some condition's flow.
    let flowNames: Set<String>
    /// What the navigation rules need of each destination, small enough to copy on every step.
    let rules: [String: NavigationRule]

    /// The part of a destination's spec the Navigator consults on every request.
    struct NavigationRule: Sendable {
        /// Required conditions in order, each with its flow destination.
        let requires: [(condition: String, flow: Destination)]
        let gate: Bool
        let modal: Bool
        let tabIndex: Int?
    }
    /// Destination indexes by routing priority: more literal parts first, then manifest order.
    let routeOrder: [Int]

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
        public let name: String
        /// The deep-link template, nil when the screen has no deep link.
        public let route: RouteTemplate?
        public let presentation: Presentation
        /// Conditions, checked in order.
        public let requires: [String]
        public let gate: Bool
    }

    /// Builds and checks a manifest.
    /// - Throws: `ManifestError` naming the destination and the problem.
    public init(
        app: String, tabs: [String] = [], root: String? = nil, modalTransition: Int64 = 500,
        conditions: [Condition] = [], destinations: [DestinationSpec], source: String = "manifest",
        lines: ManifestLines = ManifestLines()
    ) throws(ManifestError) {
        self.app = app
        self.tabs = tabs
        self.root = root
        self.modalTransition = modalTransition
        self.conditions = conditions
        self.destinations = destinations
        self.source = source
        var destinationIndex: [String: Int] = [:]
        for (index, spec) in destinations.enumerated() {
            if destinationIndex[spec.name] != nil {
                throw ManifestError(
                    .duplicateDestination, source: source, line: lines.destinations[spec.name], destination: spec.name,
                    "destination \"\(spec.name)\" is declared twice")
            }
            destinationIndex[spec.name] = index
        }
        self.destinationIndex = destinationIndex
        self.conditionIndex = Dictionary(conditions.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.tabIndex = Dictionary(tabs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        self.flowNames = Set(conditions.map(\.flow))
        let flows = Dictionary(conditions.map { ($0.name, $0.flow) }, uniquingKeysWith: { first, _ in first })
        let tabIndex = self.tabIndex
        self.rules = Dictionary(
            destinations.map { spec in
                let rule = NavigationRule(
                    requires: spec.requires.map { ($0, Destination(flows[$0] ?? "")) }, gate: spec.gate,
                    modal: spec.presentation == .modal, tabIndex: tabIndex[spec.name])
                return (spec.name, rule)
            }, uniquingKeysWith: { first, _ in first })
        self.routeOrder = destinations.indices
            .filter { destinations[$0].route != nil }
            .sorted { lhs, rhs in
                let left = destinations[lhs].route?.literalCount ?? 0
                let right = destinations[rhs].route?.literalCount ?? 0
                return left != right ? left > right : lhs < rhs
            }
        try ManifestValidator(manifest: self, lines: lines).validate()
    }

    /// The spec of the destination named `name`.
    public func spec(named name: String) -> DestinationSpec? {
        destinationIndex[name].map { destinations[$0] }
    }

    /// The condition named `name`.
    public func condition(named name: String) -> Condition? {
        conditionIndex[name].map { conditions[$0] }
    }

    /// The tab index of a tab root.
    public func tabIndex(of name: String) -> Int? {
        tabIndex[name]
    }

    /// Whether the app shows a tab bar at launch.
    public var hasTabs: Bool { !tabs.isEmpty }

    /// The state at launch: with tabs, tab 0 and each stack its root; without, the single stack `[root]`.
    public var launchState: NavigationState {
        if hasTabs {
            return NavigationState(tab: 0, stacks: tabs.map { [Destination($0)] })
        }
        return NavigationState(tab: nil, stacks: [[Destination(root ?? "")]])
    }

    /// Whether `name` is the flow of some condition.
    public func isFlow(_ name: String) -> Bool {
        flowNames.contains(name)
    }
}

/// Where the manifest's parts were declared, for error messages.
public struct ManifestLines: Sendable {
    public var destinations: [String: Int] = [:]
    public var conditions: [String: Int] = [:]
    public var tabs: Int?
    public var root: Int?
    public init() {}
}
