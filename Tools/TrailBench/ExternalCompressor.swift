import Foundation

/// A command-line compressor the benchmark compares against, run on each trail's canonical JSON through
/// standard input and output, as `Process`.
struct ExternalCompressor {
    let label: String
    let executable: String
    let arguments: [String]

    /// The compressed size of `input`.
    func compressedSize(of input: [UInt8]) throws -> Int {
        try Self.run(executable, arguments, input: input).count
    }

    /// Runs `executable` (looked up on PATH) with `input` on standard input; returns standard output.
    static func run(_ executable: String, _ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Feed standard input from another thread so a full output pipe can never deadlock the two.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError(
                "\(executable) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(String(decoding: errors, as: UTF8.self))"
            )
        }
        return Array(output)
    }
}

/// A benchmark failure, printed by the tool.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
