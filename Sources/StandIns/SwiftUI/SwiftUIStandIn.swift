// A stand-in for SwiftUI, for building on platforms without it (Linux); never shipped, never a product. Where SwiftUI
// exists (iOS, macOS), CrashtrailSwiftUI imports SwiftUI itself and this module is not compiled in.
//
// It declares exactly the SwiftUI API CrashtrailSwiftUI uses, with the signatures of Apple's documentation
// (isolation, labels, availability), so a typo or a wrong signature in the glue fails the build here too:
//   View (its Body and body), Never's conformance to View, onAppear(perform:), onChange(of:perform:).
//
// Where it differs from SwiftUI: nothing is rendered, so the views these modifiers return are inert values that never
// run their actions; tests check what the glue reports, not SwiftUI's timing.

/// Stand-in for SwiftUI's `View`.
@MainActor @preconcurrency
public protocol View {
    /// The type of view representing the body of this view.
    associatedtype Body: View

    /// The content and behavior of the view.
    @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    /// The type for the body of a view that has none.
    public typealias Body = Never

    /// Never called: a view whose body is `Never` has none.
    public var body: Never { fatalError("Never has no body") }
}

extension View {
    /// Adds an action to perform before this view appears.
    /// - Parameter action: the action to perform; nil performs none.
    /// - Returns: a view that triggers `action` before it appears.
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View {
        InertView()
    }

    /// Adds an action to perform when the given value changes.
    /// - Parameters:
    ///   - value: the value to check against when determining whether to run the closure.
    ///   - action: a closure to run when the value changes, given the new value.
    /// - Returns: a view that fires an action when the specified value changes.
    @available(iOS, introduced: 14.0, deprecated: 17.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    @available(macOS, introduced: 11.0, deprecated: 14.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    @available(tvOS, introduced: 14.0, deprecated: 17.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    @available(watchOS, introduced: 7.0, deprecated: 10.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    @available(visionOS, introduced: 1.0, deprecated: 1.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    nonisolated public func onChange<V>(of value: V, perform action: @escaping (_ newValue: V) -> Void) -> some View where V: Equatable {
        InertView()
    }
}

/// What the modifiers return here: an inert view (nothing renders, so it keeps neither the view nor the action).
private struct InertView: View {
    nonisolated init() {}
    var body: Never { fatalError("the stand-in renders nothing") }
}
