import ShopModel
import UIKit

/// The UIKit sample's entry point: one recorder for the process, a scene delegate for each window.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    /// The session every scene records into; nil when the recorder could not start (the app runs unrecorded).
    static var session: ShopSession?

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        Self.session = try? ShopSession(folder: ShopSession.defaultFolder)
        return true
    }

    func application(
        _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration {
        let configuration = UISceneConfiguration(name: nil, sessionRole: connectingSceneSession.role)
        configuration.delegateClass = SceneDelegate.self
        return configuration
    }

    func applicationWillTerminate(_ application: UIApplication) {
        try? Self.session?.recorder.endSession()
    }
}
