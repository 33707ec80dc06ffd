public import Foundation

/// Runs the built `crashtrail` executable, for end-to-end tests of the command line.
public struct CommandRunner: Sendable {
    /// What a run printed and how it ended.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        public let stdoutBytes: [UInt8]
    }

    public let executable: URL

    /// Runs `executable` (any program, not only this package's).
    public init(executable: URL) {
        self.executable = executable
    }

    /// A program on the `PATH` (`python3`), or nil when there is none.
    public static func which(_ name: String) -> CommandRunner? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return CommandRunner(executable: url) }
        }
        return nil
    }

    /// The `crashtrail` executable beside the test bundle, or nil when it was not built.
    public static func locate() -> CommandRunner? { locate(named: "crashtrail") }

    /// An executable of this package (`crashtrail`, `crashtrail-corpus`) beside the test bundle, or nil when it was
    /// not built.
    public static func locate(named name: String) -> CommandRunner? {
        let candidates =
            [
                Bundle.main.bundleURL,
                Bundle.main.bundleURL.deletingLastPathComponent(),
                URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent(),
            ] + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for folder in candidates {
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return CommandRunner(executable: url)
            }
        }
        return nil
    }

    /// Runs the tool with `arguments`, feeding `stdin`, in `directory`, with extra environment variables.
    public func run(
        _ arguments: [String], stdin: [UInt8] = [], directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let outBox = DataBox()
        let errBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            outBox.data = output.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errBox.data = error.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        input.fileHandleForWriting.write(Data(stdin))
        try input.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outBox.data, as: UTF8.self),
            stderr: String(decoding: errBox.data, as: UTF8.self), stdoutBytes: Array(outBox.data))
    }
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}

/// A temporary folder for a test; call `remove()` when done.
public struct TemporaryFolder: Sendable {
    public let url: URL

    public init(_ name: String = "crashtrail") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to a file in the folder and returns its URL.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
