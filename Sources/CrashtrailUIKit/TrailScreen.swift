#if canImport(UIKit)
public import UIKit
#else
public import UIKitStandIn
#endif

/// A view controller that shows one of the app's destinations: the UIKit glue records it in the trail.
///
/// Adopt it in each view controller that is a screen of the manifest, returning the app's own destination value
/// (typically a case of its `@TrailManifest` enum). View controllers that do not adopt it (containers, alerts,
/// activity sheets) or return nil are skipped, as `ScreenTree` skips entries that are no destination.
///
/// ```swift
/// final class ItemViewController: UIViewController, TrailScreen {
///     let id: String
///     var trailDestination: AppDestination? { .item(id: id) }
/// }
/// ```
@MainActor public protocol TrailScreen: UIViewController {
    /// The app's destination type; encoded with `Destination(encoding:)`.
    associatedtype TrailDestination: Encodable

    /// The destination this view controller shows, or nil when it shows none now.
    var trailDestination: TrailDestination? { get }
}
