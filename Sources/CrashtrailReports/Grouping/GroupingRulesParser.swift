/// Reads grouping rules as Sentry's two grammars do (its fingerprinting and stack-trace-rule parsers): a line is a
/// comment (`#` first), empty, or one rule; spaces separate (a tab is a mistake, as in Sentry); an unquoted argument
/// runs to the next space; a line with `->` is a fingerprint rule, any other rule a stack-trace rule.
///
/// Where Sentry says only `Invalid syntax near "…" (line L, column C)` at the start of the line, this parser names the
/// column where the line stops being a rule and what it expected there.
struct GroupingRulesParser {
    let file: String?
    private(set) var fingerprintRules: [FingerprintRule] = []
    private(set) var stackTraceRules: [StackTraceRule] = []
    var notes: [GroupingRulesError] = []

    /// The line being read, its number and the position in it (read and moved by the fingerprint and action parsers of
    /// GroupingRulesParser+Actions.swift too).
    var characters: [Character] = []
    private(set) var lineNumber = 0
    var position = 0

    init(file: String?) {
        self.file = file
    }

    mutating func parse(_ text: String) throws(GroupingRulesError) {
        var number = 0
        // `\r\n` is one Character: a file with Windows line ends splits there too.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            number += 1
            characters = Array(line)
            lineNumber = number
            position = 0
            try parseLine()
        }
    }

    // MARK: Lines

    private mutating func parseLine() throws(GroupingRulesError) {
        skipSpaces()
        guard position < characters.count, characters[position] != "#" else { return }
        // Sentry's stack-trace grammar reads `a:b -app c:d +app` as two rules; a fingerprint runs to the line's end.
        while try parseRule() {}
    }

    /// Reads one rule from the position; true when another rule follows on the same line.
    private mutating func parseRule() throws(GroupingRulesError) -> Bool {
        var keys: [(key: String, column: Int, neighbour: Bool)] = []
        let caller = try parseCaller()
        if let caller { keys.append((caller.matcher.key, caller.column, true)) }
        var matchers: [GroupingMatcher] = []
        var callee: GroupingMatcher?
        while true {
            skipSpaces()
            guard position < characters.count else {
                throw mistake(
                    matchers.isEmpty ? "a rule needs at least one matcher, such as function:crash" : "the rule has no `->` and no action",
                    hint: "a fingerprint rule is `MATCHERS -> FINGERPRINT`, a stack-trace rule `MATCHERS ACTIONS` (+app, -group, …)")
            }
            if characters[position] == "\t" { throw mistake("a tab: Sentry's rules separate with spaces only") }
            if looking(at: "->") {
                guard !matchers.isEmpty else { throw mistake("`->` needs a matcher before it, such as error.type:ConnectionError") }
                position += 2
                let (fingerprint, title) = try parseFingerprint()
                try check(keys, as: .fingerprint)
                fingerprintRules.append(
                    FingerprintRule(
                        matchers: resolve(matchers, as: .fingerprint), caller: caller.map { resolve($0.matcher, as: .fingerprint) },
                        callee: callee.map { resolve($0, as: .fingerprint) }, fingerprint: fingerprint, title: title, line: lineNumber))
                return false
            }
            if callee == nil, characters[position] == "|" {
                guard !matchers.isEmpty else { throw mistake("`| [ … ]` follows a rule's matchers, not its start") }
                let parsed = try parseCallee()
                callee = parsed.matcher
                keys.append((parsed.matcher.key, parsed.column, true))
                continue
            }
            if !matchers.isEmpty, let actions = try parseActionsIfAny() {
                try check(keys, as: .stackTrace)
                stackTraceRules.append(
                    StackTraceRule(
                        matchers: resolve(matchers, as: .stackTrace), caller: caller.map { resolve($0.matcher, as: .stackTrace) },
                        callee: callee.map { resolve($0, as: .stackTrace) }, actions: actions, line: lineNumber))
                skipSpaces()
                return position < characters.count && characters[position] != "#"
            }
            guard callee == nil else { throw mistake("after `| [ … ]` come the rule's actions or `->`") }
            let column = position + 1
            let matcher = try parseMatcher()
            keys.append((key: matcher.key, column: column, neighbour: false))
            matchers.append(matcher)
        }
    }

    /// Checks the keys against the rule kind's matchers (known only once the rule's kind is), and notes those that
    /// match nothing in crashtrail's reports.
    private mutating func check(
        _ keys: [(key: String, column: Int, neighbour: Bool)], as kind: GroupingMatcher.RuleKind
    ) throws(GroupingRulesError) {
        for (key, column, neighbour) in keys {
            guard let field = kind.field(key) else {
                throw GroupingRulesError(
                    .unknownMatcher, "Unknown matcher '\(key)': \(kind.noun) match \(kind.keyList)", file: file, line: lineNumber,
                    column: column)
            }
            if neighbour, !field.isFrameField, field != .family {
                throw GroupingRulesError(
                    .syntax,
                    "'\(key)' is no frame's field: a caller's or callee's matcher in `[ … ]` takes function, module, path, package, app, family or category",
                    file: file, line: lineNumber, column: column)
            }
            switch field {
            case .absent, .mechanism, .module:
                notes.append(
                    GroupingRulesError(
                        .noEffect, "'\(key)' matches nothing in crashtrail: its native reports have no such field", file: file,
                        line: lineNumber, column: column))
            default: break
            }
        }
    }

    /// The matchers with their fields, for the rule's kind.
    private func resolve(_ matchers: [GroupingMatcher], as kind: GroupingMatcher.RuleKind) -> [GroupingMatcher] {
        matchers.map { resolve($0, as: kind) }
    }

    private func resolve(_ matcher: GroupingMatcher, as kind: GroupingMatcher.RuleKind) -> GroupingMatcher {
        let field = kind.field(matcher.key) ?? .absent(matcher.key)
        return GroupingMatcher(key: matcher.key, field: field, negated: matcher.negated, argument: matcher.argument)
    }

    // MARK: Matchers

    /// `[ matcher ] |` at the start of a rule, if there.
    private mutating func parseCaller() throws(GroupingRulesError) -> (matcher: GroupingMatcher, column: Int)? {
        guard position < characters.count, characters[position] == "[" else { return nil }
        position += 1
        skipSpaces()
        let column = position + 1
        let matcher = try parseMatcher()
        skipSpaces()
        guard take("]") else {
            throw mistake("expected ` ]` to close `[ \(matcher.key):… `", hint: "an unquoted value runs to the next space")
        }
        skipSpaces()
        guard take("|") else { throw mistake("expected `|` after `[ … ]`: the caller's matcher comes before the frame's") }
        return (matcher, column)
    }

    /// `| [ matcher ]` after a rule's matchers.
    private mutating func parseCallee() throws(GroupingRulesError) -> (matcher: GroupingMatcher, column: Int) {
        position += 1
        skipSpaces()
        guard take("[") else { throw mistake("expected `[` after `|`") }
        skipSpaces()
        let column = position + 1
        let matcher = try parseMatcher()
        skipSpaces()
        guard take("]") else {
            throw mistake("expected ` ]` to close `[ \(matcher.key):… `", hint: "an unquoted value runs to the next space")
        }
        return (matcher, column)
    }

    /// `!`? `key` `:` `argument`, its field left to be resolved once the rule's kind is known.
    private mutating func parseMatcher() throws(GroupingRulesError) -> GroupingMatcher {
        let negated = take("!")
        let key: String
        if take("\"") {
            let start = position
            while position < characters.count, isKeyCharacter(characters[position]) || characters[position] == ":" { position += 1 }
            key = String(characters[start..<position])
            guard !key.isEmpty, take("\"") else { throw mistake("expected a quoted matcher name, such as \"path\"") }
        } else {
            let start = position
            while position < characters.count, isKeyCharacter(characters[position]) { position += 1 }
            key = String(characters[start..<position])
            guard !key.isEmpty else {
                throw mistake(
                    "expected a matcher (`key:value`), `->` or an action",
                    hint: "for example function:crash, error.type:\"Connection*\", -app")
            }
        }
        guard take(":") else { throw mistake("expected `:` after the matcher name '\(key)'", hint: "a matcher is `key:value`") }
        let argument = try parseArgument(stopAtComma: false)
        guard !argument.isEmpty else { throw mistake("the matcher '\(key)' needs a value after `:`") }
        return GroupingMatcher(key: key, field: .absent(key), negated: negated, argument: argument)
    }

    /// A quoted string (unescaped) or an unquoted run of non-space characters (up to a comma when `stopAtComma`).
    mutating func parseArgument(stopAtComma: Bool) throws(GroupingRulesError) -> String {
        if position < characters.count, characters[position] == "\"" { return try parseQuoted() }
        let start = position
        while position < characters.count, characters[position] != " " {
            if characters[position] == "\t" { throw mistake("a tab: Sentry's rules separate with spaces only") }
            if stopAtComma, characters[position] == "," || characters[position] == "{" { break }
            position += 1
        }
        return String(characters[start..<position])
    }

    /// A `"…"` string, with Sentry's escapes (`\"`, `\\`, `\n`, `\t`, `\r`, `\xHH`, `\uHHHH`; any other backslash
    /// stays).
    mutating func parseQuoted() throws(GroupingRulesError) -> String {
        let open = position
        position += 1
        var result = ""
        while position < characters.count {
            let character = characters[position]
            if character == "\"" {
                position += 1
                return result
            }
            if character == "\\", position + 1 < characters.count {
                let next = characters[position + 1]
                position += 2
                switch next {
                case "\\": result.append("\\")
                case "\"": result.append("\"")
                case "'": result.append("'")
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "x", "u":
                    let digits = next == "x" ? 2 : 4
                    let hex = String(characters[position..<min(characters.count, position + digits)])
                    if hex.count == digits, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                        result.unicodeScalars.append(scalar)
                        position += digits
                    } else {
                        result.append("\\")
                        result.append(next)
                    }
                default:
                    result.append("\\")
                    result.append(next)
                }
                continue
            }
            result.append(character)
            position += 1
        }
        position = open
        throw mistake("this quoted value has no closing `\"`")
    }

    // MARK: Characters

    func isKeyCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == "." || character == "-")
    }

    mutating func skipSpaces() {
        while position < characters.count, characters[position] == " " { position += 1 }
    }

    func looking(at text: String) -> Bool {
        var index = position
        for character in text {
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
        }
        return true
    }

    mutating func take(_ character: Character) -> Bool {
        guard position < characters.count, characters[position] == character else { return false }
        position += 1
        return true
    }

    func mistake(_ message: String, hint: String? = nil, code: GroupingRulesError.Code = .syntax) -> GroupingRulesError {
        var text = message
        if position < characters.count, code == .syntax {
            let near = String(characters[position..<min(characters.count, position + 32)])
            text += " (near \"\(near)\(characters.count > position + 32 ? "…" : "")\")"
        }
        if let hint { text += "; \(hint)" }
        return GroupingRulesError(code, text, file: file, line: lineNumber, column: position + 1)
    }
}
