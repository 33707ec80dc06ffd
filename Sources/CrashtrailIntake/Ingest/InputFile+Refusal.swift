import CrashtrailFormats

extension InputFile {
    /// What an input file holds, for the words of a refusal.
    enum Kind {
        /// A crash payload (an ingest input).
        case payload
        /// A trail file from the trails folder.
        case trail
    }

    /// Reads the file at `path`, or says why it is refused: `too-large` (naming the limit and where the file still is)
    /// or `unreadable` (with the system's reason).
    static func readOrRefuse(_ path: String, maximumSize: Int, kind: Kind) -> Result<[UInt8], RejectionError> {
        switch read(path, maximumSize: maximumSize) {
        case .bytes(let bytes):
            return .success(bytes)
        case .tooLarge(let size):
            let message =
                switch kind {
                case .payload:
                    "the input is \(size) bytes, over the \(maximumSize)-byte limit; it was not copied here (it is still at \(path)); raise the limit with --max-payload-size if it is a real crash"
                case .trail:
                    "the trail file is \(size) bytes, over the \(maximumSize)-byte limit; it was not copied here (it is still at \(path))"
                }
            return .failure(RejectionError(.tooLarge, message))
        case .unreadable(let why):
            return .failure(RejectionError(.unreadable, "could not read \(path): \(why)"))
        }
    }
}
