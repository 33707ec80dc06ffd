import CrashtrailCore
import CrashtrailRecording

/// `crashtrail journal record`: steps read one JSON line at a time, each recorded through the recorder into its
/// journal, and reported once it is in the file.
@MainActor
public struct JournalRecording {
    let recorder: TrailRecorder
    /// The journal's path, for messages.
    let journal: String

    /// A recording into `recorder`, whose journal is already started at `journal`.
    public init(recorder: TrailRecorder, journal: String) {
        self.recorder = recorder
        self.journal = journal
    }

    /// A line that is not a valid step, or a step the recorder refused, named by its line.
    public struct LineError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Records each line `lines` gives until it gives nil, calling `durable` with each line's zero-based number once
    /// its step is in the journal.
    /// - Throws: ``LineError`` naming the line (the steps before it stay in the journal), or the journal's failure.
    public func record(lines: () -> String?, durable: (Int) -> Void) throws {
        var index = 0
        while let line = lines() {
            defer { index += 1 }
            func fail(_ message: String) -> LineError {
                LineError(
                    description:
                        "standard input, line \(index) (zero-based; line \(index + 1) counting from 1): \(message); the \(index) steps before it are in \(journal)"
                )
            }
            let step: Step
            do {
                step = try Step(jsonValue: try JSONParser.parse(Array(line.utf8)), path: "step")
            } catch {
                throw fail(line.allSatisfy(\.isWhitespace) ? "an empty line, where a JSON step was expected" : "not a step: \(error)")
            }
            do {
                try recorder.record(step)
            } catch {
                throw fail(error.description)
            }
            if let failure = recorder.journalFailure { throw failure }
            durable(index)
        }
    }
}
