import CrashtrailUIKit
import ShopModel
import UIKit

/// One window: a tab bar of navigation controllers, recorded by the glue while its window is the key window (an iPad
/// shows several scenes; the trail follows the one the user is using).
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?
    private var trail: ViewControllerTrail?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let windowScene = scene as? UIWindowScene else { return }
        let window = UIWindow(windowScene: windowScene)
        window.rootViewController = ShopTabBarController()
        window.makeKeyAndVisible()
        self.window = window
        guard let shop = AppDelegate.session else { return }
        let trail = ViewControllerTrail(settler: shop.settler, window: window)
        trail.install()
        self.trail = trail
    }

    /// Reports the screen after a change UIKit tells no delegate of (a presentation made in code).
    func reportScreens() {
        trail?.reportScreens()
    }
}
