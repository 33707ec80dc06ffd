extension NavigationState {
    /// Checks the rules every state obeys (SPEC section 5).
    ///
    /// At least one stack and none empty, no empty modal, `tab` within the stacks, and exactly one stack
    /// when no tab bar shows. The JSON reader applies them, and so does anything that builds a state from
    /// other bytes (the binary trail decoder).
    /// - Parameter path: where the state sits in its document, for error messages (`base`, `final`).
    /// - Throws: `TrailError` (`invalid-state`) naming the field.
    public func validate(path: String) throws(TrailError) {
        guard !stacks.isEmpty else { throw TrailError(.invalidState, at: path + ".stacks", "a state needs at least one stack") }
        for (index, stack) in stacks.enumerated() where stack.isEmpty {
            throw TrailError(.invalidState, at: "\(path).stacks[\(index)]", "a stack must not be empty")
        }
        for (index, modal) in modals.enumerated() where modal.isEmpty {
            throw TrailError(.invalidState, at: "\(path).modals[\(index)]", "a stack must not be empty")
        }
        if let tab {
            guard tab >= 0, tab < stacks.count else {
                throw TrailError(.invalidState, at: path + ".tab", "tab \(tab) is out of range: the state has \(stacks.count) stack(s)")
            }
        } else if stacks.count != 1 {
            throw TrailError(
                .invalidState, at: path + ".stacks", "without a tab bar (tab null) a state has exactly one stack, found \(stacks.count)")
        }
    }
}
