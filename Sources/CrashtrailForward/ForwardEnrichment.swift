import CrashtrailReports

/// What crashtrail adds to an event it forwards (SPEC section 17): the trail as navigation breadcrumbs, and what the
/// replay found, for `contexts.crashtrail` and the tags.
package struct ForwardEnrichment: Hashable, Sendable {
    /// One step of the trail as a navigation breadcrumb.
    package struct Crumb: Hashable, Sendable {
        /// When, in seconds since 1970.
        package var time: Double
        /// The step's op (`push`, `present`, `select`).
        package var op: String
        /// The screen before the step, if any.
        package var from: String?
        /// The screen on top after the step: where it left the user.
        package var to: String
        /// The deep link of the destination, where one exists.
        package var url: String?

        package init(time: Double, op: String, from: String?, to: String, url: String?) {
            self.time = time
            self.op = op
            self.from = from
            self.to = to
            self.url = url
        }
    }

    /// Where the trail came from: `embedded`, `joined`, `inferred`, or `missing`.
    package var source: TrailInfo.Source
    /// How many steps the trail kept.
    package var steps: Int
    package var crumbs: [Crumb]
    /// The screens at the crash: the stack the user was on, its root first.
    package var crashScreens: [String]
    /// The shortest deep links that bring a simulator to the crash screens.
    package var links: [String]
    /// The replay page's URL, when the service has a public URL.
    package var replayURL: String?
    /// crashtrail's group of the report.
    package var group: String
    /// crashtrail's signature, the fingerprint with `--forward-grouping`.
    package var signature: String

    package init(
        source: TrailInfo.Source, steps: Int, crumbs: [Crumb], crashScreens: [String], links: [String], replayURL: String?, group: String,
        signature: String
    ) {
        self.source = source
        self.steps = steps
        self.crumbs = crumbs
        self.crashScreens = crashScreens
        self.links = links
        self.replayURL = replayURL
        self.group = group
        self.signature = signature
    }
}
