/// Stops the fuzzer with a message when a property that must hold for every input does not.
///
/// libFuzzer records the input that reached the trap as a crash, so a broken invariant is found the same
/// way as a memory error.
/// - Parameters:
///   - condition: the property.
///   - message: what was expected, for the crash log.
public func fuzzRequire(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("fuzz invariant broken: \(message())")
    }
}
