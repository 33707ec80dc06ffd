import ArgumentParser
import CrashtrailStore
import Foundation
import Synchronization

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Writes bytes to standard output as they are.
func writeStandardOutput(_ bytes: [UInt8]) {
    FileHandle.standardOutput.write(Data(bytes))
}

/// Runs a command's work, and reports any failure one way: `Error: …` on standard error (an ambiguous ID prefix
/// lists its candidates, one a line) and exit status 1.
///
/// Exit codes and usage errors pass through.
func reportingFailure<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let exit as ExitCode {
        throw exit
    } catch let usage as ValidationError {
        throw usage
    } catch let error as StoreError where error.code == .ambiguous {
        printError("Error: \(error.message). The candidates:")
        for candidate in error.candidates { printError("  \(candidate)") }
        throw ExitCode.failure
    } catch {
        printError("Error: \(error)")
        throw ExitCode.failure
    }
}

/// A live progress line on standard error, redrawn in place; only on a terminal, and never with `--quiet`.
final class ProgressLine: Sendable {
    private let enabled: Bool
    /// Whether a line was drawn; held while writing, so lines never interleave.
    private let drew = Mutex(false)

    init(quiet: Bool) {
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    /// Replaces the line with `text`.
    func show(_ text: String) {
        guard enabled else { return }
        drew.withLock { drew in
            drew = true
            FileHandle.standardError.write(Data("\r\u{1B}[2K\(text)".utf8))
        }
    }

    /// Clears the line before a summary prints.
    func finish() {
        drew.withLock { drew in
            if drew { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        }
    }
}
