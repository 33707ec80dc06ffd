import Foundation

/// A `crashtrail serve` child process on a free loopback port, which a test sends requests to, stops with SIGTERM or
/// kills with SIGKILL.
public final class ServeProcess: @unchecked Sendable {
    public let process = Process()
    private let captured: CapturedOutput

    /// The port it listens on, once it started.
    public private(set) var port = 0
    /// The DSN of its first project, once it started.
    public private(set) var dsn = ""
    /// The key of its first project.
    public var key: String { URLComponents(string: dsn)?.user ?? "" }
    /// The ID of its first project.
    public var projectID: String { URLComponents(string: dsn)?.path.split(separator: "/").last.map(String.init) ?? "1" }

    /// Starts `crashtrail serve --listen 127.0.0.1:0 ARGUMENTS` in `directory` and waits until it prints its DSN.
    /// - Parameters:
    ///   - runner: what runs the executable.
    ///   - arguments: its arguments after `serve --listen 127.0.0.1:0`.
    ///   - directory: where it runs.
    ///   - environment: variables set for it beside this process's own.
    ///   - timeout: how long it may take to start, in seconds.
    /// - Throws: ``ServeProcessError`` when it does not start within `timeout` seconds (with what it printed).
    public init(
        runner: CommandRunner, arguments: [String], directory: URL, environment: [String: String] = [:], timeout: Double = 60
    ) throws {
        process.executableURL = runner.executable
        process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        }
        captured = CapturedOutput(process)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        captured.start()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = stdout
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("DSN of project") }),
                let dsnStart = line.range(of: "http://")
            {
                dsn = String(line[dsnStart.lowerBound...])
                if let components = URLComponents(string: dsn), let port = components.port { self.port = port }
                // The DSN names the public URL when one is given; the port listened on is in the first line.
                if let listening = text.split(separator: "\n").first(where: { $0.contains("is listening on ") }),
                    let port = listening.split(separator: ":").last.flatMap({ Int($0) })
                {
                    self.port = port
                }
                return
            }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        finish()
        throw ServeProcessError(description: "crashtrail serve did not start: stdout \(stdout), stderr \(stderr)")
    }

    /// Sends `signal` and waits for the process to end.
    public func stop(_ signal: Int32) {
        if process.isRunning { Foundation.kill(process.processIdentifier, signal) }
        finish()
    }

    /// Waits for the process and its output.
    public func finish() {
        process.waitUntilExit()
        captured.wait()
    }

    /// The signal that ended it, if one did.
    public var signal: Int32? { process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil }

    public var status: Int32 { process.terminationStatus }

    public var stdout: String { captured.stdout }

    public var stderr: String { captured.stderr }

    /// The resident memory of the process now, in bytes (`VmRSS`), or nil when it cannot be read.
    public var residentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kib * 1024
    }
}

/// The service did not start.
public struct ServeProcessError: Error, CustomStringConvertible {
    public var description: String
}
