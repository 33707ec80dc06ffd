/// One screen a crash reporter's breadcrumb says appeared (SPEC section 15): the name the reporter wrote for it, when,
/// and whether it says the screen was presented modally.
///
/// Sentry's `ui.lifecycle` breadcrumbs give `data.screen` (a UIKit class name) and `data.beingPresented`; its
/// `navigation` breadcrumbs give `data.to`; Crashlytics' `screen_view` breadcrumbs give `firebase_screen_class` or
/// `firebase_screen`.
package struct ScreenSighting: Hashable, Sendable {
    /// The screen's name as the reporter wrote it, such as `PirateBay.ItemViewController`.
    package var screen: String
    /// Another name the reporter gave the same screen, tried when the manifest does not know `screen` (Crashlytics'
    /// `firebase_screen` beside its `firebase_screen_class`).
    package var alternative: String?
    /// When it appeared, in milliseconds since 1970 UTC, when the breadcrumb says.
    package var time: Int64?
    /// Whether the reporter says the screen was being presented (Sentry's `beingPresented`).
    package var presented: Bool

    /// A sighting of `screen`.
    /// - Parameters:
    ///   - screen: the reporter's name for the screen.
    ///   - alternative: another name for the same screen.
    ///   - time: milliseconds since 1970 UTC, or nil when unknown.
    ///   - presented: whether it was presented modally.
    package init(screen: String, alternative: String? = nil, time: Int64? = nil, presented: Bool = false) {
        self.screen = screen
        self.alternative = alternative
        self.time = time
        self.presented = presented
    }
}
