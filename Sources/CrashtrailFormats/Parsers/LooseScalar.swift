import Foundation

/// A JSON scalar whose type varies between producers (a timestamp as text or number, a version as text or
/// object, an INT64 as a string): decodes from anything and never fails.
struct LooseScalar: Decodable, Sendable {
    var string: String?
    var int: Int64?
    var double: Double?

    init(from decoder: any Decoder) throws {
        if let skimming = decoder as? SkimmingDecoderImpl {
            self = LooseScalar(skimming.document, at: skimming.currentPosition)
            return
        }
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

    /// The same result from a `SkimmingDecoder`'s document, reading the value's kind first rather than trying
    /// each type through an error.
    private init(_ document: JSONDocument, at position: JSONPosition) {
        switch document.kind(of: position) {
        case .number:
            if let value = try? document.integer(Int64.self, at: position) {
                int = value
                string = String(value)
            } else if let value = try? document.floatingPoint(Double.self, at: position) {
                double = value
                string = String(value)
            }
        case .string:
            if let value = try? document.string(at: position) {
                string = value
                int = Int64(value)
                double = Double(value)
            }
        case .bool:
            if let value = try? document.bool(at: position) { string = String(value) }
        case .object, .array, .null:
            break
        }
    }

    /// A number, as a double, from a number or a numeric string.
    var number: Double? { double ?? int.map(Double.init) }
}
