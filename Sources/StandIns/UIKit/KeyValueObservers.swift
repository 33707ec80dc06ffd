import Foundation

/// What stands in for Foundation's key-value observing, which Linux's Foundation lacks.
///
/// Linux has no Objective-C runtime. Not UIKit's API and never checked against it: the glue observes a stand-in property through this where
/// it observes the UIKit property through `NSObject.observe(_:options:changeHandler:)` on Apple platforms.
///
/// A property the glue observes calls `didChange(_:_:)` from its `didSet`, as an Objective-C property set
/// through its setter notifies its observers; each observer's handler runs at once, on the main actor.
///
/// ```swift
/// let observation = KeyValueObservers.observe(tabBarController, \UITabBarController.selectedIndex) {
///     trail.reportScreens()
/// }
/// tabBarController.selectedIndex = 2  // the handler runs
/// observation.invalidate()
/// ```
@MainActor
public enum KeyValueObservers {
    /// One registration: its handler runs until it is invalidated or released.
    public final class Observation {
        fileprivate let object: ObjectIdentifier
        fileprivate let keyPath: AnyKeyPath
        fileprivate var handler: (@MainActor () -> Void)?

        fileprivate init(object: ObjectIdentifier, keyPath: AnyKeyPath, handler: @escaping @MainActor () -> Void) {
            self.object = object
            self.keyPath = keyPath
            self.handler = handler
        }

        /// Stops the handler from running.
        public func invalidate() {
            handler = nil
        }
    }

    private struct Weak {
        weak var observation: Observation?
    }

    private static var observers: [ObjectIdentifier: [Weak]] = [:]

    /// Runs `handler` after each change of `object`'s property at `keyPath`, until the observation returned is
    /// invalidated or released (as Foundation's `NSKeyValueObservation`).
    /// - Parameters:
    ///   - object: the object whose property is observed.
    ///   - keyPath: the property.
    ///   - handler: run after each change.
    /// - Returns: the observation; keep it as long as the handler should run.
    public static func observe<Object: AnyObject, Value>(
        _ object: Object, _ keyPath: KeyPath<Object, Value>, handler: @escaping @MainActor () -> Void
    ) -> Observation {
        let observation = Observation(object: ObjectIdentifier(object), keyPath: keyPath, handler: handler)
        observers[ObjectIdentifier(object), default: []].removeAll { $0.observation == nil }
        observers[ObjectIdentifier(object), default: []].append(Weak(observation: observation))
        return observation
    }

    /// Tells the observers of `object`'s property at `keyPath` that it was set (called by the stand-in's observed
    /// properties; a value set to what it was notifies too, as in Objective-C).
    /// - Parameters:
    ///   - object: the object whose property was set.
    ///   - keyPath: the property.
    static func didChange<Object: AnyObject, Value>(_ object: Object, _ keyPath: KeyPath<Object, Value>) {
        let registered = observers[ObjectIdentifier(object)] ?? []
        for entry in registered {
            guard let observation = entry.observation, observation.keyPath == keyPath else { continue }
            observation.handler?()
        }
    }
}
