import CrashtrailCore
import CrashtrailRecording

/// `crashtrail journal record`: steps read one JSON line at a time, each recorded through the recorder into its
/// journal, and reported once it is in the file.
@MainActor
package struct JournalRecording {
    let recorder: TrailRecorder
    /// The journal's path, for messages.
    let journal: String

    /// A recording into `recorder`, whose journal is already started at `journal`.
    package init(recorder: TrailRecorder, journal: String) {
        self.recorder = recorder
        self.journal = journal
    }

    /// A line that is not a valid step, or a step the recorder refused, named by its line.
    package struct LineError: CrashtrailError, Hashable {
        /// What kind of problem it was.
        package struct Code: ErrorCode {
            package let name: String
            package init(name: String) { self.name = name }

            /// The line is not a step.
            package static let invalidStep = Code(name: "invalid-step")
            /// The recorder refused the step.
            package static let refused = Code(name: "refused")
        }

        package var code: Code
        /// The line, as `standard input, line N (…)`.
        package var location: String?
        package var message: String
        package var cause: (any Error & Sendable)?
    }

    /// Records each line `lines` gives until it gives nil, calling `durable` with each line's zero-based number once
    /// its step is in the journal; the end of the input ends the session (`TrailRecorder.endSession()`), so that the
    /// journal reads as `exited` (SPEC section 20), where a process killed while recording leaves it `killed`.
    /// - Throws: ``LineError`` naming the line (the steps before it stay in the journal), or the journal's failure.
    package func record(lines: () -> String?, durable: (Int) -> Void) throws {
        var index = 0
        while let line = lines() {
            defer { index += 1 }
            func fail(_ code: LineError.Code, _ message: String, cause: (any Error & Sendable)? = nil) -> LineError {
                LineError(
                    code: code, location: "standard input, line \(index) (zero-based; line \(index + 1) counting from 1)",
                    message: "\(message); the \(index) steps before it are in \(journal)", cause: cause)
            }
            let step: Step
            do {
                step = try Step(jsonValue: try JSONParser.parse(Array(line.utf8)), path: "step")
            } catch {
                throw fail(
                    .invalidStep,
                    line.allSatisfy(\.isWhitespace) ? "an empty line, where a JSON step was expected" : "not a step: \(error)",
                    cause: error)
            }
            do {
                try recorder.record(step)
            } catch {
                throw fail(.refused, error.description, cause: error)
            }
            if let failure = recorder.journalFailure { throw failure }
            durable(index)
        }
        try recorder.endSession()
    }
}
