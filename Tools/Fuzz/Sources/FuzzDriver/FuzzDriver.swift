import CLibFuzzer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts libFuzzer with the process arguments (`-max_total_time=60 Corpus/x`, …) over `callback` and exits
/// with its status.
///
/// Each entry point's `@main` calls this: SwiftPM renames an executable's `main`, so libFuzzer's own `main`
/// is never the one that runs.
/// - Parameter callback: the entry point's `LLVMFuzzerTestOneInput`.
public func runLibFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}

/// The bytes libFuzzer hands an entry point, as a buffer (an empty input may come with a null pointer).
/// - Parameters:
///   - data: the input's first byte.
///   - size: its length.
/// - Returns: the input as a buffer.
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
}
