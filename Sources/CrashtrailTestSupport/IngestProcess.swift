import Foundation

/// A `crashtrail ingest` child process that a test can let finish or kill with SIGKILL at a chosen moment.
public final class IngestProcess: @unchecked Sendable {
    public let process = Process()
    private let captured: CapturedOutput

    /// Starts `crashtrail ingest ARGUMENTS --store STORE --quarantine QUARANTINE --json --quiet` in `directory`.
    /// - Throws: when the executable cannot be started.
    public convenience init(runner: CommandRunner, inputs: [String], store: URL, quarantine: URL, extra: [String] = [], directory: URL)
        throws
    {
        try self.init(
            runner: runner,
            arguments: ["ingest"] + inputs + ["--store", store.path, "--quarantine", quarantine.path, "--json", "--quiet"] + extra,
            directory: directory)
    }

    /// Starts `crashtrail ARGUMENTS` in `directory` (any command: `reprocess` is killed the same way), with extra
    /// environment variables.
    public init(runner: CommandRunner, arguments: [String], directory: URL, environment: [String: String] = [:]) throws {
        process.executableURL = runner.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        captured = CapturedOutput(process)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        captured.start()
    }

    /// Kills the process with SIGKILL (if it still runs) and waits for it.
    /// - Returns: whether the kill landed: the process was still running and ended by SIGKILL, rather than having
    ///   finished on its own first.
    @discardableResult
    public func kill() -> Bool {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        finish()
        return signal == SIGKILL
    }

    /// Waits for the process and its output.
    public func finish() {
        process.waitUntilExit()
        captured.wait()
    }

    /// Whether the process ended by a signal, and which.
    public var signal: Int32? {
        process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
    }

    public var status: Int32 { process.terminationStatus }

    public var stdout: String { captured.stdout }

    public var stderr: String { captured.stderr }
}
