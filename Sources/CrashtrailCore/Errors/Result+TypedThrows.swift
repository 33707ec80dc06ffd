extension Result {
    /// The result of `body`, its error kept with its type.
    ///
    /// Swift 6's standard library has `Result(catching:)` with a typed error; the library of iOS 17 and earlier
    /// catches `any Error` only, so the app side, which supports iOS 16, catches through this instead.
    ///
    /// ```swift
    /// let parsed = bytes.withUnsafeBufferPointer { buffer in
    ///     Result(catchingTyped: { () throws(JSONParseError) in try parse(buffer) })
    /// }
    /// return try parsed.typedValue()  // throws JSONParseError, through a closure that rethrows untyped
    /// ```
    /// - Parameter body: the work, throwing `Failure`.
    package init(catchingTyped body: () throws(Failure) -> Success) {
        do throws(Failure) {
            self = .success(try body())
        } catch {
            self = .failure(error)
        }
    }

    /// The success value, or the failure thrown with its type (Swift 6's `get()`, on every standard library).
    /// - Returns: the success value.
    /// - Throws: the failure.
    package func typedValue() throws(Failure) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }
}
