/// A `{path}` or `{path:type}` placeholder of a URL template, as far as the macro needs to know it.
///
/// The runtime parser (`RouteTemplate` in CrashtrailCore) remains the judge of a template; this one only finds
/// the placeholders so that their labels and types can be checked against the case.
struct TemplatePlaceholder: Equatable {
    /// The dotted payload path, split (`["id", "rawValue"]`).
    let path: [String]
    /// The declared type as written (`int`), nil for the default string.
    let type: String?

    /// The placeholders of `template`, in order; an unclosed brace ends the scan (the runtime refuses it).
    static func placeholders(in template: String) -> [TemplatePlaceholder] {
        var result: [TemplatePlaceholder] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
            let body = rest[afterOpen..<close]
            let parts = body.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let path = (parts.first ?? "").split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            result.append(TemplatePlaceholder(path: path, type: parts.count > 1 ? String(parts[1]) : nil))
            rest = rest[rest.index(after: close)...]
        }
        return result
    }

    /// The placeholder as written, for messages: `{id.rawValue}`, `{_0:int}`.
    var text: String {
        "{" + path.joined(separator: ".") + (type.map { ":" + $0 } ?? "") + "}"
    }
}
