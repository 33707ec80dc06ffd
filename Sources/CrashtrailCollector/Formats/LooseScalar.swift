import Foundation

/// A JSON scalar whose type varies between producers (a timestamp as text or number, a version as text or
/// object, an INT64 as a string): decodes from anything and never fails.
struct LooseScalar: Decodable, Sendable {
    var string: String?
    var int: Int64?
    var double: Double?

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.singleValueContainer() else { return }
        if let value = try? container.decode(Int64.self) {
            int = value
            string = String(value)
        } else if let value = try? container.decode(Double.self) {
            double = value
            string = String(value)
        } else if let value = try? container.decode(String.self) {
            string = value
            int = Int64(value)
            double = Double(value)
        } else if let value = try? container.decode(Bool.self) {
            string = String(value)
        }
    }

    /// A number, as a double, from a number or a numeric string.
    var number: Double? { double ?? int.map(Double.init) }
}
