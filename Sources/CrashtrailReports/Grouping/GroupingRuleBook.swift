/// The grouping rules and merges a store keeps, store-wide and per project: what ingest, serve, reprocess and a debug
/// file's arrival apply to every report they derive (SPEC section 21, docs/GROUPING.md).
///
/// A report of a project with rules of its own is grouped by those; any other report by the store-wide rules. Then a
/// merge (`crashtrail group merge`) moves a signature to the one it was merged into: the project's merges, else the
/// store-wide ones.
package struct GroupingRuleBook: Sendable {
    /// The rules, by project ID; nil is store-wide.
    package var rules: [Int?: GroupingRules]
    /// The merges, by project ID (nil is store-wide): each merged signature and the signature it was merged into.
    package var merges: [Int?: [String: String]]

    /// No rules and no merges: every crash keeps its default signature.
    package static let none = GroupingRuleBook(rules: [:], merges: [:])

    package init(rules: [Int?: GroupingRules], merges: [Int?: [String: String]]) {
        self.rules = rules
        self.merges = merges
    }

    /// Whether there is nothing to apply.
    package var isEmpty: Bool { rules.values.allSatisfy(\.isEmpty) && merges.values.allSatisfy(\.isEmpty) }

    /// The rules a report of `project` is grouped by.
    package func rules(for project: Int?) -> GroupingRules {
        (project.flatMap { rules[$0] } ?? rules[nil]) ?? .none
    }

    /// The signature a report of `project` gets: its project's rules (else the store-wide ones), then its merges.
    /// - Parameters:
    ///   - project: the project the report is stored in.
    ///   - exception: the crash's exception.
    ///   - frames: the crashed thread's frames, top first.
    ///   - release: `BUNDLE@VERSION+BUILD`, when known.
    ///   - crashScreen: the screen on top at the crash, asked only when no frame can be named.
    /// - Returns: the signature.
    package func signature(
        project: Int?, exception: ExceptionInfo, frames: [StackFrame], release: String?, crashScreen: () -> String?
    ) -> String {
        let signature = rules(for: project).signature(exception: exception, frames: frames, release: release, crashScreen: crashScreen)
        return merged(signature, project: project)
    }

    /// `signature` after the merges of `project` (else the store-wide ones).
    package func merged(_ signature: String, project: Int?) -> String {
        if let project, let into = merges[project]?[signature] { return into }
        return merges[nil]?[signature] ?? signature
    }

    /// The project a report came to `serve` for, from its source (`api/3/envelope/…` is project 3); nil for a report
    /// read from a file.
    package static func project(ofSource source: String) -> Int? {
        guard source.hasPrefix("api/") else { return nil }
        let rest = source.dropFirst(4)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        return Int(rest[..<slash])
    }

    /// The release Sentry names: `BUNDLE@VERSION+BUILD`, or `BUNDLE@VERSION`; nil without a bundle ID or version.
    package static func release(bundleID: String?, version: String?, build: String?) -> String? {
        guard let bundleID, !bundleID.isEmpty, let version, !version.isEmpty else { return nil }
        guard let build, !build.isEmpty else { return "\(bundleID)@\(version)" }
        return "\(bundleID)@\(version)+\(build)"
    }
}
