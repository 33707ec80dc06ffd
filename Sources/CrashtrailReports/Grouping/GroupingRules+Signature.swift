extension GroupingRules {
    /// The signature of a crash under these rules (SPEC section 21, docs/GROUPING.md).
    ///
    /// 1. Stack-trace rules, in order, as Sentry applies them: first every rule's `app` and `category` actions (a later
    ///    rule sees what an earlier one set, and the last to set a frame wins), then the `group`, `max-frames` and
    ///    `min-frames` actions.
    /// 2. The default signature of the frames that group (``CrashSignature``): `-group` frames are left out, `+group`
    ///    frames are named as the app's are, `+app` and `-app` change which frames are the app's.
    /// 3. Fingerprint rules, in order: the first that matches names the crash by its fingerprint, `{{ default }}`
    ///    standing for step 2's signature; values are joined with ` | `.
    ///
    /// The rules change how a crash is grouped, not its stored frames.
    /// - Parameters:
    ///   - exception: the crash's exception.
    ///   - frames: the crashed thread's frames, top first.
    ///   - release: `BUNDLE@VERSION+BUILD`, when known.
    ///   - crashScreen: the screen on top at the crash, asked only when no frame can be named.
    /// - Returns: the signature.
    package func signature(
        exception: ExceptionInfo, frames: [StackFrame], release: String?, crashScreen: () -> String? = { nil }
    ) -> String {
        guard !isEmpty else { return CrashSignature.make(exception: exception, frames: frames, crashScreen: crashScreen) }
        let event = GroupingEvent(exception: exception, release: release)
        var working = frames.map {
            GroupingFrame(function: $0.symbol, file: $0.file, image: $0.image, inApp: $0.inApp, category: nil)
        }
        var contributes = [Bool?](repeating: nil, count: frames.count)
        var maxFrames: Int?
        var minFrames: Int?
        // Classifiers first, then what groups: Sentry's two passes. Sentry applies a rule's matches from the outermost
        // frame to the crash, so a `^` or `v` action of one match can be undone by the next: here, from the last index.
        for rule in stackTraceRules where rule.actions.contains(where: \.classifies) && rule.exceptionMatches(event) {
            for index in rule.frameIndices(in: working).reversed() {
                for action in rule.actions {
                    switch action {
                    case .app(let on, let range):
                        for target in Self.indices(range, of: index, count: working.count) { working[target].inApp = on }
                    case .category(let name):
                        working[index].category = name
                    default: break
                    }
                }
            }
        }
        for rule in stackTraceRules where rule.actions.contains(where: { !$0.classifies }) && rule.exceptionMatches(event) {
            let hits = rule.frameIndices(in: working)
            for index in hits.reversed() {
                for action in rule.actions {
                    switch action {
                    case .group(let on, let range):
                        for target in Self.indices(range, of: index, count: working.count) { contributes[target] = on }
                    case .maxFrames(let count): maxFrames = count
                    case .minFrames(let count): minFrames = count
                    default: break
                    }
                }
            }
        }
        var signing: [StackFrame] = []
        signing.reserveCapacity(frames.count)
        for (index, frame) in frames.enumerated() where contributes[index] != false {
            var frame = frame
            frame.inApp = working[index].inApp || contributes[index] == true
            signing.append(frame)
        }
        var names = CrashSignature.frameNames(signing, limit: maxFrames ?? CrashSignature.frameCount)
        if let minFrames, !names.isEmpty, CrashSignature.frameNames(signing, limit: minFrames).count < minFrames { names = [] }
        let defaultSignature = CrashSignature.make(head: CrashSignature.head(of: exception), frameNames: names, crashScreen: crashScreen)
        guard let rule = fingerprintRules.first(where: { $0.matches(event, frames: working) }) else { return defaultSignature }
        // `{{ function }}` and the other frame variables name the top app frame, else the top frame, as Sentry's do.
        let crashFrame = working.indices.first { working[$0].inApp }.map { frames[$0] } ?? frames.first
        return rule.signature(default: defaultSignature, exception: exception, crashFrame: crashFrame)
    }

    /// The frames an action with `range` applies to, for a rule that matched the frame at `index` (top first: above is
    /// toward the crash).
    private static func indices(_ range: StackTraceAction.Range, of index: Int, count: Int) -> Range<Int> {
        switch range {
        case .this: index..<(index + 1)
        case .above: 0..<index
        case .below: (index + 1)..<count
        }
    }
}

extension StackTraceAction {
    /// Whether Sentry applies the action in its first pass (what a frame is) rather than its second (what groups).
    var classifies: Bool {
        switch self {
        case .app, .category: true
        default: false
        }
    }
}

extension GroupingEvent {
    /// The crash `exception` describes, as rules see it.
    init(exception: ExceptionInfo, release: String?) {
        let completed = exception.completed()
        var names: [String] = []
        for name in [completed.language?.name, completed.type, completed.mach, completed.signal] {
            if let name, !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        self.init(exceptionNames: names, reason: completed.language?.reason ?? completed.reason, release: release)
    }
}

extension StackTraceRule {
    /// Whether the rule's exception matchers hold (a field the crash lacks reads as `<unknown>`, as in Sentry).
    func exceptionMatches(_ event: GroupingEvent) -> Bool {
        matchers.allSatisfy { $0.field.isFrameField || $0.matches(event: event, missing: "<unknown>") }
    }

    /// The frames (top first) where every frame matcher holds, with the caller and callee.
    func frameIndices(in frames: [GroupingFrame]) -> [Int] {
        frames.indices.filter { index in
            GroupingRules.frameMatches(matchers, caller: caller, callee: callee, at: index, in: frames)
        }
    }
}

extension FingerprintRule {
    /// Whether a crash matches: every matcher of the crash's own fields holds, and one frame holds every frame
    /// matcher (none does when there are no frames, as in Sentry).
    func matches(_ event: GroupingEvent, frames: [GroupingFrame]) -> Bool {
        guard matchers.allSatisfy({ $0.field.isFrameField || $0.matches(event: event, missing: nil) }) else { return false }
        guard matchers.contains(where: \.field.isFrameField) || caller != nil || callee != nil else { return true }
        return frames.indices.contains { GroupingRules.frameMatches(matchers, caller: caller, callee: callee, at: $0, in: frames) }
    }

    /// The signature the fingerprint gives: its values, variables resolved, joined with ` | `; the default alone when
    /// the fingerprint is `{{ default }}`.
    func signature(default defaultSignature: String, exception: ExceptionInfo, crashFrame top: StackFrame?) -> String {
        let completed = exception.completed()
        // Named as a signature names it: no addresses, offsets, block numbers or specializations; nothing for `<redacted>`.
        var function: String?
        if let top, let symbol = top.symbol, CrashSignature.isName(CrashSignature.clean(symbol)) { function = CrashSignature.frameKey(top) }
        let values = fingerprint.map { value -> String in
            guard value.hasPrefix("{{ "), value.hasSuffix(" }}") else { return value }
            let name = String(value.dropFirst(3).dropLast(3))
            switch name {
            case "default": return defaultSignature
            case "type", "error.type": return completed.language?.name ?? completed.type ?? "<no-type>"
            case "value", "error.value": return completed.language?.reason ?? completed.reason ?? "<no-value>"
            case "message": return completed.language?.reason ?? completed.reason ?? "<no-message>"
            case "function", "stack.function": return function ?? "<no-function>"
            case "path", "stack.abs_path": return top?.file ?? "<no-abs-path>"
            case "stack.filename": return top?.file.map { String($0.split(separator: "/").last ?? "") } ?? "<no-filename>"
            case "module", "stack.module": return "<no-module>"
            case "package", "stack.package":
                return top?.image.map { String($0.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? "") } ?? "<no-package>"
            case "level": return "fatal"
            case "logger": return "<no-logger>"
            case "transaction": return "<no-transaction>"
            default:
                if name.hasPrefix("tags.") { return "<no-value-for-tag-\(name.dropFirst(5))>" }
                return "<unrecognized-variable-\(name)>"
            }
        }
        return values.joined(separator: " | ")
    }
}

extension GroupingRules {
    /// Whether the frame at `index` holds every frame matcher, its caller (the frame below it) the caller matcher and
    /// its callee (the frame above it) the callee matcher.
    static func frameMatches(
        _ matchers: [GroupingMatcher], caller: GroupingMatcher?, callee: GroupingMatcher?, at index: Int, in frames: [GroupingFrame]
    ) -> Bool {
        let frame = frames[index]
        guard matchers.allSatisfy({ !$0.field.isFrameField || $0.matches(frame: frame) }) else { return false }
        if let caller {
            guard index + 1 < frames.count, caller.matches(frame: frames[index + 1]) else { return false }
        }
        if let callee {
            guard index > 0, callee.matches(frame: frames[index - 1]) else { return false }
        }
        return true
    }
}
