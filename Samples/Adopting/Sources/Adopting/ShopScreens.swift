import CrashtrailAdapters
import CrashtrailRecording
import CrashtrailUIKit

#if canImport(UIKit)
import UIKit
#else
import UIKitStandIn
#endif

// docs/ADOPTING.md, step 4, UIKit: each screen's view controller says which destination it shows.
final class ProductViewController: UIViewController, TrailScreen {
    var productID = ""
    var trailDestination: AppDestination? { .product(id: productID) }
}

/// docs/ADOPTING.md, step 4, UIKit: the adapter, attached once the window has its root view controller.
@MainActor
public final class ShopWindowTrail {
    let trail: ViewControllerTrail

    public init(
        recorder: TrailRecorder, window: UIWindow, signedIn: @escaping @MainActor () -> Bool, clock: @escaping @MainActor () -> Int64
    ) {
        let settler = ScreenSettler(recorder: recorder, conditions: { signedIn() ? ["signedIn"] : [] }, clock: clock)
        let trail = ViewControllerTrail(settler: settler) { [weak window] in window?.rootViewController }
        trail.install()
        self.trail = trail
    }
}
