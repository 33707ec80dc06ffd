/// A coding key the destination coders make themselves (an array index, or `super`), and the dotted text of a
/// coding path that their errors name (`item.price`, `basket.items[2].sku`).
struct DestinationCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    /// The key `superEncoder()` and `superDecoder()` use, as Foundation's JSON coders name it.
    static let superKey = DestinationCodingKey(stringValue: "super")

    /// The key of an array element.
    static func index(_ index: Int) -> DestinationCodingKey {
        DestinationCodingKey(intValue: index)
    }

    /// A coding path as a person reads it: keys joined by `.`, array indexes in brackets, `the top level` when empty.
    static func text(of path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the top level" }
        var text = ""
        for key in path {
            if key is DestinationCodingKey, let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }
}
