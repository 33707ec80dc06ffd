/// The grouping rules and merges a store keeps, store-wide and per project: what ingest, serve, reprocess and a debug
/// file's arrival apply to every report they derive (SPEC section 21, docs/GROUPING.md).
///
/// A report of a project with rules of its own is grouped by those; any other report by the store-wide rules. Then a
/// merge (`crashtrail group merge`) moves a signature to the one it was merged into: the project's merges, else the
/// store-wide ones.
package struct GroupingRuleBook: Sendable {
    /// The rules, by scope: one project's, or `.all` for the store-wide ones.
    package var rules: [ProjectScope: GroupingRules]
    /// The merges, by scope (one project's, or `.all` for the store-wide ones): each merged signature and the
    /// signature it was merged into.
    package var merges: [ProjectScope: [String: String]]

    /// No rules and no merges: every crash keeps its default signature.
    package static let none = GroupingRuleBook(rules: [:], merges: [:])

    package init(rules: [ProjectScope: GroupingRules], merges: [ProjectScope: [String: String]]) {
        self.rules = rules
        self.merges = merges
    }

    /// Whether there is nothing to apply.
    package var isEmpty: Bool { rules.values.allSatisfy(\.isEmpty) && merges.values.allSatisfy(\.isEmpty) }

    /// The rules a report of `project` is grouped by: its project's, else the store-wide ones.
    package func rules(for project: ProjectID) -> GroupingRules {
        rules[.one(project)] ?? rules[.all] ?? .none
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
        project: ProjectID, exception: ExceptionInfo, frames: [StackFrame], release: String?, crashScreen: () -> String?
    ) -> String {
        let signature = rules(for: project).signature(exception: exception, frames: frames, release: release, crashScreen: crashScreen)
        return merged(signature, project: project)
    }

    /// `signature` after the merges of `project` (else the store-wide ones).
    package func merged(_ signature: String, project: ProjectID) -> String {
        merges[.one(project)]?[signature] ?? merges[.all]?[signature] ?? signature
    }

    /// The release Sentry names: `BUNDLE@VERSION+BUILD`, or `BUNDLE@VERSION`; nil without a bundle ID or version.
    package static func release(bundleID: String?, version: String?, build: String?) -> String? {
        guard let bundleID, !bundleID.isEmpty, let version, !version.isEmpty else { return nil }
        guard let build, !build.isEmpty else { return "\(bundleID)@\(version)" }
        return "\(bundleID)@\(version)+\(build)"
    }
}
