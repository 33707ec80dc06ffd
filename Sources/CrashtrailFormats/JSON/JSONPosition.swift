import CrashtrailCore

/// Where a value of a validated document starts: the offset of its first byte and, for an array or object, its
/// number in `JSONStructure.spans`.
struct JSONPosition: Sendable {
    var offset: Int
    /// The span number of an array or object; unused for other values.
    var span: Int

    /// No value at all, read as `null`: what `superDecoder(forKey:)` decodes for a missing key.
    static let absent = JSONPosition(offset: -1, span: -1)
}

/// What kind of JSON value starts at a position.
enum JSONKind {
    case object, array, string, number, bool, null

    /// How Foundation's `JSONDecoder` names the kind in its errors ("found a string instead").
    var phrase: String {
        switch self {
        case .object: "a dictionary"
        case .array: "an array"
        case .string: "a string"
        case .number: "number"
        case .bool: "bool"
        case .null: "null"
        }
    }
}
