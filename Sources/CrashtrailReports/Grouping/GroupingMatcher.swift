/// One `key:value` (or `!key:value`) matcher of a grouping rule, as Sentry names and compares them.
package struct GroupingMatcher: Hashable, Sendable {
    /// What a matcher compares, and what of a crashtrail report that is.
    package enum Field: Hashable, Sendable {
        /// `type`, `error.type`: the exception's names (the language exception, the Mach exception, the signal).
        case type
        /// `value`, `error.value`: the exception's reason, without case.
        case value
        /// `message`: the reason too, without case.
        case message
        /// `mechanism`, `error.mechanism`: not kept by crashtrail; matches nothing.
        case mechanism
        /// `function`, `stack.function`: a frame's function (`<unknown>` without one).
        case function
        /// `module`, `stack.module`: none in native frames; matches nothing.
        case module
        /// `path`, `stack.abs_path`: a frame's source file, a path glob.
        case path
        /// `package`, `stack.package`: a frame's image, a path glob.
        case package
        /// `app`: whether a frame is the app's code (`yes`/`no`, `true`/`false`, `1`/`0`).
        case app
        /// `family`: `native` for every crashtrail report; a comma list, or `all`.
        case family
        /// `category`: what a `category=` action set on a frame.
        case category
        /// `level`: `fatal` for every crash.
        case level
        /// `release`: `BUNDLE@VERSION+BUILD`, a path glob.
        case release
        /// `thread.crashed`: true: the frames are the crashed thread's.
        case threadCrashed
        /// A field crashtrail's reports do not have (`logger`, `sdk`, `tags.NAME`, `thread.name`, …): matches nothing.
        case absent(String)

        /// Whether the field is a frame's, so that all of a rule's frame matchers must match one frame.
        var isFrameField: Bool {
            switch self {
            case .function, .module, .path, .package, .app, .category: true
            default: false
            }
        }
    }

    /// The key as written (`stack.function`).
    package var key: String
    /// What it compares.
    package var field: Field
    /// `!`: the matcher holds where the comparison fails.
    package var negated: Bool
    /// The value as written, unescaped.
    package var argument: String
    /// The value as a glob; nil where it is not one (such a matcher matches nothing) or the field is no glob.
    let glob: Glob?

    init(key: String, field: Field, negated: Bool, argument: String) {
        self.key = key
        self.field = field
        self.negated = negated
        self.argument = argument
        switch field {
        case .path, .package, .release: glob = Glob(argument, path: true)
        case .value, .message, .level: glob = Glob(argument, caseInsensitive: true)
        case .app, .family, .threadCrashed, .absent: glob = nil
        default: glob = Glob(argument)
        }
    }

    /// Whether a frame with these values matches, `!` applied.
    func matches(frame: GroupingFrame) -> Bool {
        let result: Bool
        switch field {
        case .function: result = glob?.matches(frame.function ?? "<unknown>") ?? false
        case .path: result = frame.file.map { file in glob?.matches(file) ?? false } ?? false
        case .package: result = frame.image.map { image in glob?.matches(image) ?? false } ?? false
        case .category: result = frame.category.map { category in glob?.matches(category) ?? false } ?? false
        case .app: result = Self.bool(argument).map { $0 == frame.inApp } ?? false
        case .family: result = Self.family(argument)
        default: result = false
        }
        return result != negated
    }

    /// Whether a crash with these exception names and reason matches, `!` applied.
    /// - Parameters:
    ///   - event: the crash.
    ///   - missing: what a field the crash lacks reads as (`<unknown>` in stack-trace rules); nil when such a field
    ///     matches nothing.
    /// - Returns: whether the matcher holds.
    func matches(event: GroupingEvent, missing: String?) -> Bool {
        let result: Bool
        switch field {
        case .type:
            let names = event.exceptionNames.isEmpty ? missing.map { [$0] } ?? [] : event.exceptionNames
            result = names.contains { glob?.matches($0) ?? false }
        case .value, .message: result = (event.reason ?? missing).map { reason in glob?.matches(reason) ?? false } ?? false
        case .mechanism: result = missing.map { glob?.matches($0) ?? false } ?? false
        case .level: result = glob?.matches("fatal") ?? false
        case .release: result = event.release.map { release in glob?.matches(release) ?? false } ?? false
        case .family: result = Self.family(argument)
        case .threadCrashed: result = Self.bool(argument) == true
        default: result = false
        }
        return result != negated
    }

    /// Sentry's booleans: `1`, `yes`, `true` and `0`, `no`, `false`, without case; nil for anything else.
    static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "yes", "true": true
        case "0", "no", "false": false
        default: nil
        }
    }

    /// Whether a `family:` list names native code, the family of every crashtrail report.
    static func family(_ list: String) -> Bool {
        list.split(separator: ",").contains { $0 == "native" || $0 == "all" }
    }
}

/// A crash as grouping rules see it: its exception and release.
package struct GroupingEvent: Hashable, Sendable {
    /// The names the exception goes by: the language exception's, the Mach exception's and the signal's.
    package var exceptionNames: [String]
    /// The exception's reason, when there is one.
    package var reason: String?
    /// `BUNDLE@VERSION+BUILD`, when the report names its app.
    package var release: String?

    package init(exceptionNames: [String], reason: String?, release: String?) {
        self.exceptionNames = exceptionNames
        self.reason = reason
        self.release = release
    }
}

/// A frame as grouping rules see it.
struct GroupingFrame {
    var function: String?
    var file: String?
    var image: String?
    var inApp: Bool
    var category: String?
}
