/// A coding key for any string: reads objects whose keys are data (tags, an embedded trail) rather than fields.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
