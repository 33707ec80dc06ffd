internal import Foundation

/// An observation of one notification of one object, removed from the notification center when released.
final class NotificationObservation: Sendable {
    private let token: UncheckedToken

    /// Runs `handler` on the main actor after each `name` notification `object` posts.
    /// - Parameters:
    ///   - name: the notification.
    ///   - object: the object that posts it.
    ///   - handler: run on the main actor's next turn after each one.
    init(_ name: Notification.Name, of object: AnyObject, handler: @escaping @MainActor @Sendable () -> Void) {
        let observer = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { _ in
            Task { @MainActor in handler() }
        }
        token = UncheckedToken(observer)
    }

    deinit {
        NotificationCenter.default.removeObserver(token.observer)
    }
}

/// The notification center's token: an opaque object it hands back, touched only to remove the observer.
private final class UncheckedToken: NSObject, @unchecked Sendable {
    let observer: any NSObjectProtocol

    init(_ observer: any NSObjectProtocol) {
        self.observer = observer
    }
}
