import Foundation

/// A child process's standard output and error, read as they come on threads of their own, so a test can look at
/// what it printed so far while it runs, and all of it once it ended.
final class CapturedOutput: @unchecked Sendable {
    private let output = Pipe()
    private let error = Pipe()
    private let lock = NSLock()
    private var outData = Data()
    private var errData = Data()
    private let drained = DispatchGroup()

    /// Connects `process`'s standard output and error; ``start()`` reads them once it runs.
    init(_ process: Process) {
        process.standardOutput = output
        process.standardError = error
    }

    /// Starts reading both pipes until their ends.
    func start() {
        for (pipe, isError) in [(output, false), (error, true)] {
            drained.enter()
            DispatchQueue.global().async { [self] in
                let handle = pipe.fileHandleForReading
                while case let data = handle.availableData, !data.isEmpty {
                    lock.withLock {
                        if isError { errData += data } else { outData += data }
                    }
                }
                drained.leave()
            }
        }
    }

    /// Waits until both pipes were read to their ends (the process ended).
    func wait() { drained.wait() }

    var stdout: String { lock.withLock { String(decoding: outData, as: UTF8.self) } }

    var stderr: String { lock.withLock { String(decoding: errData, as: UTF8.self) } }
}
