/// A glob as Sentry's grouping rules match them: globset's syntax, anchored at both ends, on UTF-8 bytes.
///
/// - `?` one character, `*` any run of them, `[abc]`, `[a-z]`, `[!x]` or `[^x]` a class, `{a,b}` alternatives (nested
///   too), `\x` the character `x`;
/// - `**` as a whole path component: `**/` at the start is any leading folders or none, `/**` at the end anything
///   below, `/**/` in the middle any folders between; elsewhere `**` is `*`.
///
/// A path glob (Sentry's `path` and `package`) compares without case (ASCII), reads `\` as `/` in the pattern and the
/// value, lets `*` and `?` stop at `/` (only `**` crosses folders), and tries a value without a leading `/` once more
/// with one. Other globs compare with case (`caseInsensitive` makes them ignore it, as Sentry's `value` and
/// `message` do) and let `*` cross `/`.
///
/// ```swift
/// Glob("std::*")?.matches("std::terminate()")                          // true
/// Glob("**/node_modules/**", path: true)?.matches("src/node_modules/a.js")  // true
/// ```
package struct Glob: Hashable, Sendable {
    /// The pattern as written.
    package let pattern: String
    /// Whether `*` and `?` stop at `/` and `\` is a separator: Sentry's path matching.
    let path: Bool
    /// Whether ASCII letters compare without case.
    let caseInsensitive: Bool
    /// The pattern with its `{…}` alternatives expanded, each compiled.
    private let alternatives: [[Token]]

    private enum Token: Hashable, Sendable {
        case byte(UInt8)
        case any
        case star
        /// `**/` at the start: `(?:/?|.*/)`.
        case leadingFolders
        /// `/**` at the end: `/.*`.
        case trailingFolders
        /// `/**/` in the middle: `(?:/|/.*/)`.
        case middleFolders
        /// `**` alone: anything.
        case everything
        case set(negated: Bool, ranges: [ClosedRange<UInt8>])
    }

    /// Compiles `pattern`; nil when it is not a glob (an unclosed `[` or `{`, a `}` with no `{`), which Sentry's rules
    /// treat as matching nothing.
    /// - Parameters:
    ///   - pattern: the glob.
    ///   - path: whether it is a path glob.
    ///   - caseInsensitive: whether letters compare without case; path globs always do.
    package init?(_ pattern: String, path: Bool = false, caseInsensitive: Bool = false) {
        self.pattern = pattern
        self.path = path
        self.caseInsensitive = caseInsensitive || path
        var source = Array(pattern.utf8)
        if path { source = source.map { $0 == UInt8(ascii: "\\") ? UInt8(ascii: "/") : $0 } }
        guard let expanded = Self.expand(source[...]), expanded.count <= Self.maximumAlternatives else { return nil }
        var compiled: [[Token]] = []
        for alternative in expanded {
            guard let tokens = Self.compile(alternative, escapes: !path) else { return nil }
            compiled.append(tokens)
        }
        alternatives = compiled
    }

    /// Whether `value` matches the whole glob.
    package func matches(_ value: String) -> Bool {
        var bytes = Array(value.utf8)
        if path { bytes = bytes.map { $0 == UInt8(ascii: "\\") ? UInt8(ascii: "/") : $0 } }
        if matchesBytes(bytes) { return true }
        // Sentry tries a relative path again as an absolute one.
        if path, bytes.first != UInt8(ascii: "/") { return matchesBytes([UInt8(ascii: "/")] + bytes) }
        return false
    }

    private func matchesBytes(_ value: [UInt8]) -> Bool {
        alternatives.contains { matches($0, value) }
    }

    /// Whether `tokens` match the whole of `value`: a walk over the tokens that keeps, after each, every position of
    /// `value` the tokens so far can end at.
    ///
    /// Its time is the tokens times the value's bytes, and its stack is constant: a pattern of many stars, or of
    /// thousands of bytes, against a long function name, takes no longer than its size says (a backtracking matcher
    /// takes exponential time there, a memoized recursion as deep as the pattern).
    private func matches(_ tokens: [Token], _ value: [UInt8]) -> Bool {
        let slash = UInt8(ascii: "/")
        let count = value.count
        // `current[i]`: the tokens before this one match `value[..<i]`.
        var current = [Bool](repeating: false, count: count + 1)
        var next = current
        current[0] = true
        for token in tokens {
            var reach = false
            var alive = false
            for j in 0...count {
                let before = j > 0 ? value[j - 1] : 0
                switch token {
                case .byte(let byte):
                    next[j] = j > 0 && current[j - 1] && same(before, byte)
                case .any:
                    next[j] = j > 0 && current[j - 1] && !(path && before == slash)
                case .set(let negated, let ranges):
                    next[j] =
                        j > 0 && current[j - 1]
                        && ranges.contains { $0.contains(before) || (caseInsensitive && $0.contains(Self.otherCase(before))) } != negated
                case .star:
                    // From any start, over bytes none of which is a separator in a path glob.
                    if j > 0, path, before == slash { reach = false }
                    if current[j] { reach = true }
                    next[j] = reach
                case .everything:
                    if current[j] { reach = true }
                    next[j] = reach
                case .leadingFolders:
                    // Nothing, or anything that ends in `/`.
                    next[j] = current[j] || (reach && before == slash)
                    if current[j] { reach = true }
                case .trailingFolders:
                    // A `/`, then anything.
                    next[j] = reach
                    if j < count, current[j], value[j] == slash { reach = true }
                case .middleFolders:
                    // A `/`, then nothing or anything that ends in `/`.
                    next[j] = reach && before == slash
                    if j < count, current[j], value[j] == slash { reach = true }
                }
                alive = alive || next[j]
            }
            guard alive else { return false }
            swap(&current, &next)
        }
        return current[count]
    }

    private func same(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || (caseInsensitive && Self.otherCase(a) == b)
    }

    /// An ASCII letter in the other case; any other byte as it is.
    private static func otherCase(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - 32
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
        default: byte
        }
    }

    /// The most patterns a glob's `{…}` alternatives may make; more is no glob (twenty `{a,b}` would make a million).
    static let maximumAlternatives = 1_024

    /// The index after the `]` closing a class that starts at `start` (a `[`), or nil when it is not closed; inside a
    /// class, `{`, `}` and `,` are themselves.
    private static func classEnd(_ source: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start + 1
        if index < source.endIndex, source[index] == UInt8(ascii: "!") || source[index] == UInt8(ascii: "^") { index += 1 }
        // A `]` first is part of the class.
        if index < source.endIndex, source[index] == UInt8(ascii: "]") { index += 1 }
        while index < source.endIndex {
            if source[index] == UInt8(ascii: "]") { return index + 1 }
            index += 1
        }
        return nil
    }

    /// Every pattern `{a,b}` alternatives make (`x{a,{b,c}}` is `xa`, `xb`, `xc`); nil for an unbalanced brace or more
    /// than ``maximumAlternatives``.
    private static func expand(_ source: ArraySlice<UInt8>) -> [[UInt8]]? {
        var index = source.startIndex
        var escaped = false
        while index < source.endIndex {
            let byte = source[index]
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "[") {
                guard let end = classEnd(source, from: index) else { return nil }
                index = end
                continue
            } else if byte == UInt8(ascii: "}") {
                return nil
            } else if byte == UInt8(ascii: "{") {
                // Find the matching `}` and the top-level commas between.
                var depth = 0
                var commas: [Int] = []
                var close: Int?
                var scan = index
                var scanEscaped = false
                while scan < source.endIndex {
                    let b = source[scan]
                    if scanEscaped {
                        scanEscaped = false
                    } else if b == UInt8(ascii: "\\") {
                        scanEscaped = true
                    } else if b == UInt8(ascii: "[") {
                        guard let end = classEnd(source, from: scan) else { return nil }
                        scan = end
                        continue
                    } else if b == UInt8(ascii: "{") {
                        depth += 1
                    } else if b == UInt8(ascii: "}") {
                        depth -= 1
                        if depth == 0 {
                            close = scan
                            break
                        }
                    } else if b == UInt8(ascii: ","), depth == 1 {
                        commas.append(scan)
                    }
                    scan += 1
                }
                guard let close else { return nil }
                let bounds = [index] + commas + [close]
                guard let rest = expand(source[(close + 1)...]) else { return nil }
                var results: [[UInt8]] = []
                for part in 0..<(bounds.count - 1) {
                    guard let inner = expand(source[(bounds[part] + 1)..<bounds[part + 1]]) else { return nil }
                    for middle in inner {
                        for tail in rest { results.append(Array(source[source.startIndex..<index]) + middle + tail) }
                    }
                    guard results.count <= maximumAlternatives else { return nil }
                }
                return results
            }
            index += 1
        }
        return [Array(source)]
    }

    /// The tokens of a pattern without braces; nil for an unclosed `[`.
    private static func compile(_ source: [UInt8], escapes: Bool) -> [Token]? {
        let slash = UInt8(ascii: "/")
        let star = UInt8(ascii: "*")
        var tokens: [Token] = []
        var index = 0
        while index < source.count {
            let byte = source[index]
            switch byte {
            case UInt8(ascii: "\\") where escapes && index + 1 < source.count:
                tokens.append(.byte(source[index + 1]))
                index += 2
                continue
            case UInt8(ascii: "?"):
                tokens.append(.any)
            case star where index + 1 < source.count && source[index + 1] == star:
                // `**` is special only as a whole path component.
                let atStart = index == 0
                // The `/` before must still be a `/` of its own, not one a `**/` before took in.
                let afterSlash = index > 0 && source[index - 1] == slash && tokens.last == .byte(slash)
                let atEnd = index + 2 == source.count
                let beforeSlash = index + 2 < source.count && source[index + 2] == slash
                if atStart, atEnd {
                    tokens.append(.everything)
                    index += 2
                } else if atStart, beforeSlash {
                    tokens.append(.leadingFolders)
                    index += 3
                } else if afterSlash, atEnd {
                    tokens.removeLast()
                    tokens.append(.trailingFolders)
                    index += 2
                } else if afterSlash, beforeSlash {
                    tokens.removeLast()
                    tokens.append(.middleFolders)
                    index += 3
                } else {
                    tokens.append(.star)
                    index += 2
                }
                continue
            case star:
                tokens.append(.star)
            case UInt8(ascii: "["):
                guard let (set, end) = compileSet(source, from: index + 1) else { return nil }
                tokens.append(set)
                index = end + 1
                continue
            default:
                tokens.append(.byte(byte))
            }
            index += 1
        }
        return tokens
    }

    /// The class starting after a `[` at `start`, and the index of its `]`.
    private static func compileSet(_ source: [UInt8], from start: Int) -> (Token, Int)? {
        var index = start
        var negated = false
        if index < source.count, source[index] == UInt8(ascii: "!") || source[index] == UInt8(ascii: "^") {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt8>] = []
        var first = true
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "]"), !first { return (.set(negated: negated, ranges: ranges), index) }
            first = false
            if index + 2 < source.count, source[index + 1] == UInt8(ascii: "-"), source[index + 2] != UInt8(ascii: "]") {
                let upper = source[index + 2]
                guard byte <= upper else { return nil }
                ranges.append(byte...upper)
                index += 3
            } else {
                ranges.append(byte...byte)
                index += 1
            }
        }
        return nil
    }
}
