import Foundation
import CrashtrailCollector

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Prints why a command failed as `Error: …`; an ambiguous ID prefix lists its candidates, one a line.
func printFailure(_ error: any Error) {
    if let error = error as? StoreError, error.code == .ambiguous {
        printError("Error: \(error.message). The candidates:")
        for candidate in error.candidates { printError("  \(candidate)") }
    } else {
        printError("Error: \(error)")
    }
}
