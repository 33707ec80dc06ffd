/// The right-hand sides of rules: a fingerprint rule's values and title after `->`, a stack-trace rule's actions.
extension GroupingRulesParser {
    // MARK: Fingerprints

    /// The values after `->` and the `title="…"` attribute: values are separated by spaces and one optional comma;
    /// `{{ name }}` is a variable.
    mutating func parseFingerprint() throws(GroupingRulesError) -> ([String], String?) {
        var values: [String] = []
        var title: String?
        while true {
            skipSpaces()
            guard position < characters.count else { break }
            if characters[position] == "\t" { throw mistake("a tab: Sentry's rules separate with spaces only") }
            if characters[position] == "," { throw mistake("an empty fingerprint value: two commas, or a comma first") }
            let start = position
            if let (key, value) = try parseAttributeIfAny() {
                guard key == "title" else {
                    position = start
                    throw mistake("Unknown attribute '\(key)': a fingerprint takes only title=\"…\"", code: .unknownAttribute)
                }
                title = value
            } else if characters[position] == "\"" {
                values.append(try parseQuoted())
            } else if looking(at: "{{") {
                values.append(try parseVariable())
            } else if characters[position] == "{" {
                throw mistake("a lone `{`: a variable is written {{ name }}")
            } else {
                values.append(try parseArgument(stopAtComma: true))
            }
            skipSpaces()
            _ = take(",")
        }
        guard !values.isEmpty else { throw mistake("a fingerprint needs at least one value after `->`, such as {{ default }}") }
        return (values, title)
    }

    /// `key="value"` at the position, if there.
    mutating func parseAttributeIfAny() throws(GroupingRulesError) -> (String, String)? {
        var end = position
        while end < characters.count, isKeyCharacter(characters[end]) { end += 1 }
        guard end > position, end + 1 < characters.count, characters[end] == "=", characters[end + 1] == "\"" else { return nil }
        let key = String(characters[position..<end])
        position = end + 1
        return (key, try parseQuoted())
    }

    /// `{{ name }}`, written back as `{{ name }}` with one space each side.
    mutating func parseVariable() throws(GroupingRulesError) -> String {
        let start = position
        position += 2
        skipSpaces()
        let nameStart = position
        while position < characters.count, characters[position] != " ", !looking(at: "}}") { position += 1 }
        let name = String(characters[nameStart..<position])
        skipSpaces()
        guard !name.isEmpty, take("}"), take("}") else {
            position = start
            throw mistake("a variable is written {{ name }}, such as {{ default }} or {{ function }}")
        }
        return "{{ \(name) }}"
    }

    // MARK: Actions

    /// The actions from the position to the end of the line, when the position starts one; nil when it starts a
    /// matcher instead.
    mutating func parseActionsIfAny() throws(GroupingRulesError) -> [StackTraceAction]? {
        guard actionStarts() else { return nil }
        var actions: [StackTraceAction] = []
        while true {
            skipSpaces()
            guard position < characters.count else { break }
            if characters[position] == "#" {
                // Sentry's stack-trace grammar ends a rule's line at a comment.
                break
            }
            guard actionStarts() else {
                // A matcher after actions starts the line's next rule, as in Sentry.
                guard !actions.isEmpty else {
                    throw mistake(
                        "expected an action (+app, -app, +group, -group, ^-group, v+app, max-frames=N, min-frames=N, category=NAME)")
                }
                break
            }
            actions.append(try parseAction())
        }
        return actions
    }

    func actionStarts() -> Bool {
        var index = position
        if index < characters.count, characters[index] == "^" || characters[index] == "v" { index += 1 }
        if index < characters.count, characters[index] == "+" || characters[index] == "-" { return true }
        for name in Self.variables {
            var end = position
            for character in name {
                guard end < characters.count, characters[end] == character else { break }
                end += 1
            }
            guard end - position == name.count else { continue }
            while end < characters.count, characters[end] == " " { end += 1 }
            if end < characters.count, characters[end] == "=" { return true }
        }
        return false
    }

    private static let variables = ["max-frames", "min-frames", "category", "invert-stacktrace"]

    mutating func parseAction() throws(GroupingRulesError) -> StackTraceAction {
        let start = position
        if let name = Self.variables.first(where: { looking(at: $0) }) {
            position += name.count
            skipSpaces()
            _ = take("=")
            skipSpaces()
            let valueStart = position
            while position < characters.count, isKeyCharacter(characters[position]) { position += 1 }
            let value = String(characters[valueStart..<position])
            guard !value.isEmpty else { throw mistake("\(name)= needs a value") }
            switch name {
            case "max-frames", "min-frames":
                guard let count = Int(value), count >= 0 else {
                    position = valueStart
                    throw mistake("Invalid value '\(value)' for '\(name)': a number of frames", code: .invalidValue)
                }
                return name == "max-frames" ? .maxFrames(count) : .minFrames(count)
            case "category": return .category(value)
            default:
                notes.append(
                    GroupingRulesError(
                        .noEffect, "invert-stacktrace has no effect in crashtrail: its frames are always top first", file: file,
                        line: lineNumber, column: start + 1))
                return .invertStacktrace
            }
        }
        var range = StackTraceAction.Range.this
        if take("^") {
            range = .above
        } else if take("v") {
            range = .below
        }
        let on = take("+")
        if !on { _ = take("-") }
        let kind: String
        if looking(at: "app") {
            kind = "app"
        } else if looking(at: "group") {
            kind = "group"
        } else {
            position = start
            throw mistake("expected +app, -app, +group or -group (with ^ or v before for the frames above or below)")
        }
        position += kind.count
        guard position == characters.count || characters[position] == " " else {
            throw mistake("expected a space or the end of the line after `\(String(characters[start..<position]))`")
        }
        return kind == "app" ? .app(on, range) : .group(on, range)
    }
}
