public import CrashtrailReports

/// A project `crashtrail serve` accepts reports for: the `ID` and `KEY` of its DSN, `http://KEY@HOST:PORT/ID`.
public struct Project: Hashable, Sendable, Codable {
    /// The number in the DSN's path.
    public var id: ProjectID
    /// What the team calls it (`crashtrail project add NAME`).
    public var name: String
    /// The public key an SDK sends (`sentry_key`, or `Authorization: Bearer KEY`).
    public var key: String
    /// A revoked project's key is refused.
    public var revoked: Bool
    /// The most events a minute the service takes for it (`crashtrail project limit`); nil for the service's default.
    public var eventsPerMinute: Int?

    public init(id: ProjectID, name: String, key: String, revoked: Bool = false, eventsPerMinute: Int? = nil) {
        self.id = id
        self.name = name
        self.key = key
        self.revoked = revoked
        self.eventsPerMinute = eventsPerMinute
    }

    /// The DSN an app's Sentry SDK takes, for a service at `base` (`http://HOST:PORT`, a path allowed).
    public func dsn(base: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        guard let schemeEnd = base.range(of: "://") else { return "\(key)@\(base)/\(id)" }
        return "\(base[..<schemeEnd.upperBound])\(key)@\(base[schemeEnd.upperBound...])/\(id)"
    }

    /// The project of `projects` that `idOrName` names: by its ID, else by its name, so a name that spells another
    /// project's ID never shadows that project.
    package static func named(_ idOrName: String, in projects: [Project]) -> Project? {
        projects.first { $0.id.description == idOrName } ?? projects.first { $0.name == idOrName }
    }

    /// A new random key: 32 lower-case hex digits, as Sentry's.
    public static func newKey() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<32).map { _ in digits[Int(generator.next() % 16)] })
    }
}

extension ProjectScope {
    /// The scope of `project` when there is one, else `otherwise`: a `--project` option given, or the default.
    /// - Parameters:
    ///   - project: the project named, if any.
    ///   - otherwise: the scope when none is named.
    public init(_ project: Project?, otherwise: ProjectScope = .all) {
        self = project.map { .one($0.id) } ?? otherwise
    }
}
