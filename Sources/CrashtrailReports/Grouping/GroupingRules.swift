/// A project's grouping rules, in Sentry's own syntax so a team can paste theirs (SPEC section 21,
/// docs/GROUPING.md): fingerprint rules (`matchers -> fingerprint`) and stack-trace rules (`matchers actions`), one
/// a line, in one text; `#` starts a comment line.
///
/// ```
/// # Two crashes of one failing service are one group.
/// error.type:DatabaseUnavailable -> system-down
/// # A vendored SDK is not the app's code.
/// family:native package:**/Frameworks/VendorSDK.framework/** -app
/// stack.function:_NSRaiseError ^-group -app
/// ```
///
/// Parsed as Sentry parses them (its grammars, its matcher names and its globs); a mistake is a
/// ``GroupingRulesError`` naming its line and column. What the rules do to a report is
/// ``signature(exception:frames:release:crashScreen:)``.
package struct GroupingRules: Hashable, Sendable {
    /// The text as given.
    package let text: String
    /// The fingerprint rules, in order: the first that matches names the group.
    package let fingerprintRules: [FingerprintRule]
    /// The stack-trace rules, in order: a later rule's action on a frame wins.
    package let stackTraceRules: [StackTraceRule]
    /// What the rules say that crashtrail accepts but cannot act on (a matcher on a field its reports do not have),
    /// each with its line.
    package let notes: [GroupingRulesError]

    /// No rules: every crash keeps its default signature.
    package static let none = GroupingRules(text: "", fingerprintRules: [], stackTraceRules: [], notes: [])

    /// Whether there are no rules.
    package var isEmpty: Bool { fingerprintRules.isEmpty && stackTraceRules.isEmpty }

    init(text: String, fingerprintRules: [FingerprintRule], stackTraceRules: [StackTraceRule], notes: [GroupingRulesError]) {
        self.text = text
        self.fingerprintRules = fingerprintRules
        self.stackTraceRules = stackTraceRules
        self.notes = notes
    }

    /// Parses rules.
    /// - Parameters:
    ///   - text: the rules.
    ///   - file: the file they came from, named in errors.
    /// - Throws: ``GroupingRulesError`` at the first mistake, with its line and column.
    package init(parsing text: String, file: String? = nil) throws(GroupingRulesError) {
        var parser = GroupingRulesParser(file: file)
        try parser.parse(text)
        self.init(text: text, fingerprintRules: parser.fingerprintRules, stackTraceRules: parser.stackTraceRules, notes: parser.notes)
    }
}

/// `matchers -> fingerprint [title="…"]`: a crash that matches is grouped by the fingerprint instead.
package struct FingerprintRule: Hashable, Sendable {
    /// What the crash must match: every exception matcher one exception name, every frame matcher one frame.
    package var matchers: [GroupingMatcher]
    /// `[ matcher ] |`: the frame that called the matched one must match too.
    package var caller: GroupingMatcher?
    /// `| [ matcher ]`: the frame the matched one called must match too.
    package var callee: GroupingMatcher?
    /// The fingerprint's values, `{{ default }}` and other variables as written (spaces normalized).
    package var fingerprint: [String]
    /// The `title="…"` attribute, when given.
    package var title: String?
    /// The rule's line in the text.
    package var line: Int
}

/// `matchers actions`: what the frames that match are, for grouping.
package struct StackTraceRule: Hashable, Sendable {
    /// What a frame (and the crash's exception) must match.
    package var matchers: [GroupingMatcher]
    /// `[ matcher ] |`: the frame that called the matched one must match too.
    package var caller: GroupingMatcher?
    /// `| [ matcher ]`: the frame the matched one called must match too.
    package var callee: GroupingMatcher?
    /// The actions, in order.
    package var actions: [StackTraceAction]
    /// The rule's line in the text.
    package var line: Int
}

/// One action of a stack-trace rule.
package enum StackTraceAction: Hashable, Sendable {
    /// Which frames a flag applies to: the matched frame, those above it (toward the crash, `^`) or below (`v`).
    package enum Range: Hashable, Sendable {
        case this, above, below
    }

    /// `+app` / `-app`: the frames are (not) the app's code.
    case app(Bool, Range)
    /// `+group` / `-group`: the frames are (not) named by the signature.
    case group(Bool, Range)
    /// `max-frames=N`: the signature names at most N frames.
    case maxFrames(Int)
    /// `min-frames=N`: a stack with fewer frames to name than N names none.
    case minFrames(Int)
    /// `category=NAME`: the frames' category, which `category:` matchers of later rules see.
    case category(String)
    /// `invert-stacktrace=…`: accepted, without effect (crashtrail's frames are always top first).
    case invertStacktrace
}
