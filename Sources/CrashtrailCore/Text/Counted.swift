/// A count in words that agree with it: `1 report`, `2 reports`, `0 reports`; the one place crashtrail's commands
/// and pages make a plural.
///
/// - Parameters:
///   - count: the number.
///   - noun: the noun in the singular.
///   - plural: the plural when it is not the noun with `s` (`1 match`, `2 matches`).
/// - Returns: the number and the noun.
package func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
