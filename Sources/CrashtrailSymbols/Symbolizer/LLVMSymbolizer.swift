import CrashtrailCore
import Dispatch
import Foundation
import Synchronization

/// One long-lived `llvm-symbolizer` process in batch mode: addresses in, one JSON line out for each, the inlined
/// functions first (`--inlines --output-style=JSON`), with linkage names (`--no-demangle`; crashtrail demangles them
/// itself and keeps both).
///
/// It is used by one caller at a time (its state is behind a `Mutex`); the collector's `Symbolicator` holds one for each worker,
/// so symbolication is not held to one core. A process that dies is started again at the next batch; one that does not
/// answer a batch within its deadline is killed (SIGKILL) and started again at the next batch, so a symbolizer that hangs
/// never holds intake longer than the deadline (SPEC section 19).
package final class LLVMSymbolizer: Sendable {
    /// What runs the process: its executable.
    package let executable: String
    /// How long a batch may take, from its first address written to its last answer read.
    package let deadline: Duration
    private let state = Mutex<ProcessState?>(nil)
    /// Held by the caller using the process, so another can wait for it with a deadline.
    private let gate = DispatchSemaphore(value: 1)

    /// A batch job's deadline: long, so a large debug file loads on a busy machine and every run names the same
    /// frames; a symbolizer that hangs still ends the wait.
    package static let batchDeadline = Duration.seconds(60)
    /// A service's deadline: short, since a request waits for it.
    package static let serviceDeadline = Duration.seconds(10)

    /// `$CRASHTRAIL_SYMBOLIZER_TIMEOUT` seconds (up to an hour) when it is set, else `otherwise`.
    package static func deadline(environment: [String: String], otherwise: Duration) -> Duration {
        if let text = environment["CRASHTRAIL_SYMBOLIZER_TIMEOUT"], let seconds = Double(text), seconds > 0, seconds <= 3600 {
            return .milliseconds(Int64(seconds * 1000))
        }
        return otherwise
    }

    /// The process and its pipes, while it runs.
    private struct ProcessState {
        let process: Process
        let input: FileHandle
        let output: LineReader
    }

    /// A symbolizer that runs `executable`, each batch within `deadline`.
    package init(executable: String, deadline: Duration = LLVMSymbolizer.batchDeadline) {
        self.executable = executable
        self.deadline = deadline
    }

    deinit {
        state.withLock { state in
            if let running = state.take() { Self.stop(running) }
        }
    }

    /// Kills a process that may not listen to SIGTERM, and closes its pipes.
    private static func stop(_ running: ProcessState) {
        try? running.input.close()
        if running.process.isRunning { kill(running.process.processIdentifier, SIGKILL) }
    }

    /// What llvm-symbolizer answered for one address.
    package enum Answer: Hashable, Sendable {
        /// The frames at the address, innermost first; nil when the debug file names nothing there.
        case frames([SymbolicatedFrame]?)
        /// It could not read the debug file (its `Error` answer, with its message): nothing is known of the address.
        case unreadableFile(String)
    }

    /// The answer at each of `queries` (a debug file's path and an address in it, the slice's `__TEXT` vmaddr plus the
    /// offset): its frames, none for an address the file names nothing at, or that the file could not be read.
    /// - Parameters:
    ///   - queries: the debug files' paths and the addresses in them.
    ///   - waitingAtMost: how long to wait while another caller uses the process; nil waits until it is free.
    /// - Returns: the answer at each query, in order.
    /// - Throws: ``SymbolizerError`` when the process cannot start, dies, answers what it was not asked, does not answer
    ///   within the deadline, or stayed busy longer than `waitingAtMost`.
    package func symbolicate(
        _ queries: [(path: String, address: UInt64)], waitingAtMost: Duration? = nil
    ) throws(SymbolizerError) -> [Answer] {
        if let waitingAtMost {
            let (seconds, attoseconds) = waitingAtMost.components
            let nanoseconds = Int(clamping: seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            guard gate.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else {
                throw SymbolizerError(.busy, "\(executable) was busy with another caller's addresses for \(waitingAtMost)")
            }
        } else {
            gate.wait()
        }
        defer { gate.signal() }
        var answers: [Answer] = []
        answers.reserveCapacity(queries.count)
        // Batches small enough that their input always fits in the pipe (64 KiB on Linux), so writing never waits on
        // reading: at most 128 addresses and 16 KiB of text.
        var start = 0
        while start < queries.count {
            var end = start
            var bytes = 0
            while end < queries.count, end - start < 128, end == start || bytes + queries[end].path.utf8.count + 24 <= 16_384 {
                bytes += queries[end].path.utf8.count + 24
                end += 1
            }
            answers += try run(queries[start..<end])
            start = end
        }
        return answers
    }

    private func run(_ batch: ArraySlice<(path: String, address: UInt64)>) throws(SymbolizerError) -> [Answer] {
        try state.withLock { (state) throws(SymbolizerError) -> [Answer] in
            if state == nil { state = try launch() }
            guard let running = state else { throw SymbolizerError(.cannotStart, "\(executable) did not start") }
            var text = ""
            for query in batch {
                // A quoted path may hold spaces; llvm-symbolizer reads `"PATH" ADDRESS`.
                text += "\"\(query.path)\" 0x\(String(query.address, radix: 16))\n"
            }
            let seconds = deadline.components
            let deadlineNanoseconds = UInt64(seconds.seconds) * 1_000_000_000 + UInt64(seconds.attoseconds / 1_000_000_000)
            let due = DispatchTime.now().uptimeNanoseconds &+ deadlineNanoseconds
            do {
                try running.input.write(contentsOf: Data(text.utf8))
                var answers: [Answer] = []
                for _ in batch {
                    let line: [UInt8]?
                    do {
                        line = try running.output.nextLine(due: due)
                    } catch {
                        Self.stop(running)
                        throw SymbolizerError(
                            .timedOut,
                            "\(executable) did not answer \(batch.count) addresses within \(deadline) (CRASHTRAIL_SYMBOLIZER_TIMEOUT); it was killed and starts again at the next batch"
                        )
                    }
                    guard let line else {
                        throw SymbolizerError(
                            .died,
                            "\(executable) stopped answering (exit status \(running.process.isRunning ? "none" : String(running.process.terminationStatus)))"
                        )
                    }
                    answers.append(try Self.answer(fromJSONLine: line))
                }
                return answers
            } catch let error as SymbolizerError {
                Self.stop(running)
                state = nil
                throw error
            } catch {
                Self.stop(running)
                state = nil
                throw SymbolizerError(.died, "\(executable) could not be written to: \(error)", cause: error)
            }
        }
    }

    private func launch() throws(SymbolizerError) -> ProcessState {
        // Writing to a symbolizer that died must fail with EPIPE, which restarts it, instead of ending this process.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--inlines", "--output-style=JSON", "--no-demangle", "--functions=linkage"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw SymbolizerError(.cannotStart, "\(executable) could not be started: \(error.localizedDescription)", cause: error)
        }
        return ProcessState(process: process, input: input.fileHandleForWriting, output: LineReader(output.fileHandleForReading))
    }

    /// A frame's file as reports name it: none for `??`; Swift's `<compiler-generated>` without the compilation
    /// folder llvm-symbolizer joins to it.
    static func file(_ name: String) -> String? {
        if name.isEmpty || name == "??" { return nil }
        if name.hasSuffix("/<compiler-generated>") { return "<compiler-generated>" }
        return name
    }

    /// The answer of one line: `{"Address", "ModuleName", "Symbol": [...]}`, or `{"Error": {"Message"}}` when it could
    /// not read the file.
    static func answer(fromJSONLine line: [UInt8]) throws(SymbolizerError) -> Answer {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw SymbolizerError(.unreadableAnswer, "llvm-symbolizer answered a line that is not JSON: \(error)", cause: error)
        }
        if let error = value["Error"] {
            return .unreadableFile(error["Message"]?.stringValue ?? "llvm-symbolizer could not read the debug file")
        }
        return .frames(frames(of: value))
    }

    /// The frames of an answer that read the file; nil when it names nothing at the address.
    private static func frames(of value: JSONValue) -> [SymbolicatedFrame]? {
        guard case .array(let symbols)? = value["Symbol"] else { return nil }
        let frames = symbols.compactMap { symbol -> SymbolicatedFrame? in
            guard let name = symbol["FunctionName"]?.stringValue, !name.isEmpty, name != "??" else { return nil }
            let file = symbol["FileName"]?.stringValue.flatMap(Self.file)
            let line = symbol["Line"]?.intValue.flatMap { $0 > 0 ? Int($0) : nil }
            let start = symbol["StartAddress"]?.stringValue.flatMap { text in
                text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : nil
            }
            return SymbolicatedFrame(rawSymbol: name, file: file, line: file == nil ? nil : line, inlined: true, startAddress: start)
        }
        guard !frames.isEmpty else { return nil }
        // Innermost first: every frame but the last (the function the address is in) was inlined into the next.
        return frames.enumerated().map { index, frame in
            var frame = frame
            frame.inlined = index < frames.count - 1
            return frame
        }
    }
}

/// Reads lines from a pipe, buffering what comes after the newline, each by a deadline.
private final class LineReader {
    /// The deadline passed before a line came.
    struct TimedOut: Error {}

    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line without its newline, or nil at the end.
    /// - Parameter due: the monotonic instant (`DispatchTime`'s nanoseconds) by which it must come.
    /// - Returns: the line, or nil at the end of the output.
    /// - Throws: `TimedOut` when it did not come by then.
    func nextLine(due: UInt64) throws -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                return line
            }
            // Waits for bytes at most until the deadline; then `availableData` returns what the pipe holds at once.
            // (`read(upToCount:)` would wait for the whole count, which the process never writes while it waits for the
            // next address.)
            var ready = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            while true {
                let now = DispatchTime.now().uptimeNanoseconds
                guard now < due else { throw TimedOut() }
                let milliseconds = Int32(clamping: (due - now + 999_999) / 1_000_000)
                let result = poll(&ready, 1, milliseconds)
                if result > 0 { break }
                if result < 0, errno != EINTR { return nil }
            }
            let chunk = handle.availableData
            guard !chunk.isEmpty else { return nil }
            buffer.append(contentsOf: chunk)
        }
    }
}
