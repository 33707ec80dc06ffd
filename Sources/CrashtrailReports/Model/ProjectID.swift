/// A project of the store (SPEC section 19): the number in its DSN's path, 1 and up.
///
/// A store's first project is 1. It encodes as that number, so JSON and the store's columns read as they did when
/// projects were plain integers.
///
/// ```swift
/// let shop = ProjectID(rawValue: 3)  // project 3
/// ProjectID(rawValue: 0)             // nil: 0 is no project's number
/// let first: ProjectID = 1           // a literal is a project's number too; a literal below 1 stops the program
/// ```
public struct ProjectID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The project's number.
    public let rawValue: Int

    /// The project numbered `rawValue`; nil below 1.
    /// - Parameter rawValue: the number in the project's DSN.
    public init?(rawValue: Int) {
        guard rawValue >= 1 else { return nil }
        self.rawValue = rawValue
    }

    /// The project numbered `text` (decimal digits), as a DSN's path or an option names it; nil otherwise.
    /// - Parameter text: the number.
    public init?(_ text: some StringProtocol) {
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let value = Int(text) else { return nil }
        self.init(rawValue: value)
    }

    /// The project numbered `value`, written as a literal in code; the program stops if it is below 1, as it does for an
    /// array's index out of its bounds.
    /// - Parameter value: the project's number.
    public init(integerLiteral value: Int) {
        precondition(value >= 1, "a project's number is 1 or more, not \(value)")
        self.rawValue = value
    }

    private init(checked rawValue: Int) {
        self.rawValue = rawValue
    }

    /// A store's first project, which a store of one project has alone and which `ingest` stores into by default.
    public static let first = ProjectID(checked: 1)

    public var description: String { String(rawValue) }

    public static func < (lhs: ProjectID, rhs: ProjectID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Int.self)
        guard let id = ProjectID(rawValue: value) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "a project's number is 1 or more, not \(value)"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Which projects a read, a count, a token or a rule is for.
///
/// - ``all``: every project. A read of the whole store (an operator's, `crashtrail list` without `--project`), an
///   operator's token, grouping rules and merges for every project's crashes.
/// - ``one(_:)``: one project's.
/// - ``unassigned``: what belongs to no project: sessions counted before they were counted per project (read
///   as the first project's, as the reports of that time are), debug files added beside the store (they name the frames of every
///   project's crashes).
///
/// The store writes ``one(_:)`` as the project's number and the other two as 0, a number no project has; what 0 means
/// when read is the table's own (docs/STORE.md).
public enum ProjectScope: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    case all
    case one(ProjectID)
    case unassigned

    /// One project's scope, written as the project's number: `reading(project: 2)`.
    /// - Parameter value: the project's number, 1 or more.
    public init(integerLiteral value: Int) {
        self = .one(ProjectID(integerLiteral: value))
    }

    /// The one project, or nil for every project and for none.
    public var project: ProjectID? {
        if case .one(let id) = self { return id }
        return nil
    }

    /// Whether this scope takes in `project`'s rows: every project does, one project its own.
    /// - Parameter project: the project a row belongs to.
    /// - Returns: whether the row is in scope.
    public func includes(_ project: ProjectID) -> Bool {
        switch self {
        case .all: true
        case .one(let id): id == project
        case .unassigned: false
        }
    }

    public var description: String {
        switch self {
        case .all: "every project"
        case .one(let id): "project \(id)"
        case .unassigned: "no project"
        }
    }
}
