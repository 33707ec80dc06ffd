public import CrashtrailCore
import CrashtrailRecording
public import Foundation

/// One run of `crashtrail journal record` ended by a signal at a random moment, then checked against the promise
/// of SPEC section 10 (and section 20's ending: killed after a signal, exited after the whole input): the recovered
/// trail's steps are exactly the input steps from some line on, through at least
/// the last line number printed as durable, with `base` and `dropped` accounting for the ones before, and
/// replaying it gives its `final`.
///
/// Used by the reliability tests (a few dozen runs) and by `crashtrail-journal-faults` (a thousand and more).
public struct JournalFaultRun: Sendable {
    /// How the run ended and what was checked.
    public struct Outcome: Sendable, CustomStringConvertible {
        /// The signal that ended the process, or nil when it finished first.
        public var signal: Int32?
        /// The last line number printed as durable, if any.
        public var lastDurable: Int?
        /// The steps recovered (kept plus let go), or nil when no journal existed yet.
        public var recovered: Int64?
        /// Seconds from the start of the recording to its end.
        public var duration: Double
        /// Broken promises, in words; empty when the run kept every promise.
        public var failures: [String]

        public var description: String {
            "signal \(signal.map(String.init) ?? "none"), durable through line \(lastDurable.map(String.init) ?? "none"), recovered \(recovered.map(String.init) ?? "no journal")"
        }
    }

    public let executable: URL
    public let manifestPath: String
    public let manifest: Manifest
    public let limits: (steps: Int, bytes: Int)

    /// The redaction key the recordings use, so the expected steps can be redacted as the recorder redacts them.
    static let redactionKey: [UInt8] = Array(100..<132)

    public init(executable: URL, manifestPath: String, limits: (steps: Int, bytes: Int)) throws {
        self.executable = executable
        self.manifestPath = manifestPath
        self.manifest = try Manifest(contentsOfFile: manifestPath)
        self.limits = limits
        // The recorder dies with steps still to write to its input: the write must fail, not end this process.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Records `steps` into `journal`, sends `signal` after `delay` seconds, then recovers and checks.
    public func run(steps: [Step], journal: URL, signal: Int32, delay: Double) throws -> Outcome {
        try? FileManager.default.removeItem(at: journal)
        let keyFile = journal.deletingLastPathComponent().appendingPathComponent("redaction.key")
        try Data(Self.redactionKey).write(to: keyFile)
        // Steps are recorded as given, except where the manifest's redaction replaces values (SPEC section 10).
        let redactor = Redactor(manifest: manifest, key: Self.redactionKey)
        let recorded = steps.map(redactor.redact)
        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "journal", "record", journal.path, "--manifest", manifestPath, "--app-version", "1.0", "--build", "1",
            "--session", "00000000-0000-4000-8000-00000000FA17", "--redaction-key", keyFile.path, "--max-steps", String(limits.steps),
            "--max-bytes",
            String(limits.bytes),
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // Swift's backtracer would catch SIGSEGV and SIGABRT and print a backtrace first; an app has no such handler
        // (or a crash reporter's, which ends the process the same way), so the signals take their default action:
        // the process ends at whatever instruction it was running, as a crash ends it.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        try process.run()
        let printed = Collected()
        let reader = Thread {
            printed.set(output.fileHandleForReading.readDataToEndOfFile())
        }
        reader.start()
        let lines = steps.map { Data(CanonicalJSON.bytes(of: $0.jsonValue) + [0x0A]) }
        let writer = Thread {
            for line in lines {
                do { try input.fileHandleForWriting.write(contentsOf: line) } catch { break }
            }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let started = Date()
        while process.isRunning, Date().timeIntervalSince(started) < delay { usleep(200) }
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        let duration = Date().timeIntervalSince(started)
        while !printed.isSet { Thread.sleep(forTimeInterval: 0.001) }

        var outcome = Outcome(signal: nil, lastDurable: nil, recovered: nil, duration: duration, failures: [])
        if process.terminationReason == .uncaughtSignal {
            outcome.signal = process.terminationStatus
        } else if process.terminationStatus != 0 {
            outcome.failures.append("the recording ended with status \(process.terminationStatus)")
        }
        // Only whole lines were printed after their step was durable; a number cut by the signal does not count.
        let text = String(decoding: printed.data, as: UTF8.self)
        let whole =
            text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex)])
        let numbers = whole.split(separator: "\n").compactMap { Int($0) }
        if numbers != Array(0..<numbers.count) { outcome.failures.append("the printed line numbers are not 0, 1, 2, …") }
        outcome.lastDurable = numbers.last

        guard FileManager.default.fileExists(atPath: journal.path) else {
            if let last = numbers.last { outcome.failures.append("line \(last) was printed as durable, but there is no journal") }
            return outcome
        }
        let recovered: RecoveredJournal
        do {
            recovered = try TrailJournal.recover(at: journal)
        } catch {
            outcome.failures.append("recovery failed: \(error)")
            return outcome
        }
        let trail = recovered.trail
        let count = trail.dropped + Int64(trail.steps.count)
        outcome.recovered = count
        if let last = numbers.last, count < Int64(last + 1) {
            outcome.failures.append("line \(last) was printed as durable, but only \(count) steps were recovered")
        }
        if count > Int64(steps.count) { outcome.failures.append("\(count) steps recovered from \(steps.count) given") }
        if count <= Int64(steps.count) {
            let expected = Array(recorded[Int(trail.dropped)..<Int(count)])
            if trail.steps != expected {
                outcome.failures.append("the recovered steps are not the input steps \(trail.dropped)..<\(count)")
            }
            // Earlier steps are let go only as the limits say: at least as many as the limits need (the recorder also
            // lets go a step that falls inside a modal transition started by one it let go).
            let sizes = recorded[..<Int(count)].map { CanonicalJSON.bytes(of: $0.jsonValue).count + 1 }
            var bytes = sizes.reduce(0, +)
            var needed = 0
            while needed < sizes.count, sizes.count - needed > limits.steps || bytes > limits.bytes {
                bytes -= sizes[needed]
                needed += 1
            }
            if trail.dropped < Int64(needed) {
                outcome.failures.append("\(trail.dropped) steps were let go, fewer than the limits need (\(needed))")
            }
            var engine = NavigationEngine(manifest: manifest, state: trail.base)
            engine.apply(trail.steps)
            if engine.state != trail.final { outcome.failures.append("replaying the recovered trail does not give its final") }
        }
        // How the session ended (SPEC section 20): a process ended by a signal left no end, so it reads as killed (or
        // crashed, when the crash reporter says so); one that read all its input ended the session itself.
        // A signal that lands after the whole input was recorded may find the session already ended: only then may a
        // recording ended by a signal read as exited.
        let ending = recovered.ending(crashReported: false)
        if ending == .exited, count < Int64(steps.count) {
            outcome.failures.append("the journal reads as exited after \(count) of \(steps.count) steps")
        }
        if outcome.signal != nil, ending != .killed, count < Int64(steps.count) {
            outcome.failures.append("a recording ended by a signal before its input ended reads as \(ending.rawValue), not killed")
        }
        if outcome.signal == nil, process.terminationStatus == 0, ending != .exited {
            outcome.failures.append("a recording that read all its input reads as \(ending.rawValue), not exited")
        }
        if recovered.ending(crashReported: true) != .crashed { outcome.failures.append("a reported crash does not read as crashed") }
        if trail.session.id != "00000000-0000-4000-8000-00000000FA17" || trail.session.pid != Int64(process.processIdentifier) {
            outcome.failures.append("the recovered session is not the recording process's")
        }
        return outcome
    }
}

/// The bytes one thread read, handed to another.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = Data()
    private var done = false

    func set(_ data: Data) {
        lock.withLock {
            bytes = data
            done = true
        }
    }

    var isSet: Bool { lock.withLock { done } }
    var data: Data { lock.withLock { bytes } }
}

extension JournalFaultRun {
    /// What many runs found.
    public struct Report: Sendable, CustomStringConvertible {
        public var runs = 0
        public var failed = 0
        /// Runs ended by each signal.
        public var bySignal: [Int32: Int] = [:]
        /// Runs that finished before their signal.
        public var finished = 0
        /// Runs ended before the journal existed.
        public var beforeJournal = 0
        public var stepsRecovered: Int64 = 0

        public var description: String {
            let signals = bySignal.sorted { $0.key < $1.key }.map { "\(Self.name(of: $0.key)) \($0.value)" }.joined(separator: ", ")
            return
                "\(runs) runs, \(failed) broke the promise; ended by \(signals.isEmpty ? "no signal" : signals), \(finished) finished first, \(beforeJournal) before the journal existed; \(stepsRecovered) steps recovered in all"
        }

        static func name(of signal: Int32) -> String {
            switch signal {
            case SIGKILL: "SIGKILL"
            case SIGSEGV: "SIGSEGV"
            case SIGABRT: "SIGABRT"
            default: "signal \(signal)"
            }
        }
    }

    /// `runs` runs with seeded steps, signals and delays; `observe` sees each outcome.
    public func runMany(
        _ runs: Int, seed: UInt64, in folder: URL, observe: (Int, Outcome) -> Void = { _, _ in }
    ) throws -> Report {
        var random = SplitMix64(seed: seed)
        var report = Report()
        let signals: [Int32] = [SIGKILL, SIGSEGV, SIGABRT]
        // The delays spread over one whole recording of the longest input, measured here, so signals land before,
        // during and (for shorter inputs) after the recording.
        var calibration = RandomStepGenerator(manifest: manifest, seed: seed)
        let window = try run(
            steps: calibration.steps(count: 2_000), journal: folder.appendingPathComponent("run.ctj"), signal: SIGKILL, delay: 30
        ).duration
        for index in 0..<runs {
            var generator = RandomStepGenerator(manifest: manifest, seed: random.next())
            let steps = generator.steps(count: 500 + Int(random.next() % 1_500))
            let signal = signals[Int(random.next() % UInt64(signals.count))]
            let delay = Double(random.next() % 1_000) / 1_000 * window
            let outcome = try run(steps: steps, journal: folder.appendingPathComponent("run.ctj"), signal: signal, delay: delay)
            report.runs += 1
            if !outcome.failures.isEmpty { report.failed += 1 }
            if let ended = outcome.signal {
                report.bySignal[ended, default: 0] += 1
            } else {
                report.finished += 1
            }
            if outcome.recovered == nil { report.beforeJournal += 1 }
            report.stepsRecovered += outcome.recovered ?? 0
            observe(index, outcome)
        }
        return report
    }
}
