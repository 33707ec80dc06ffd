import Foundation

/// Where crashtrail reads its process's environment: the one place it is read.
///
/// The command line reads it once and hands it on; a library type that looks up a variable
/// (`CRASHTRAIL_STORE`, `PGPASSWORD`, `CRASHTRAIL_LLVM_SYMBOLIZER`, `CRASHTRAIL_SYMBOL_CACHE`) takes the variables
/// as a dictionary, whose default is ``current()``, so a test passes its own.
public enum ProcessEnvironment {
    /// The process's environment variables, now.
    public static func current() -> [String: String] { ProcessInfo.processInfo.environment }
}
