import CrashtrailCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The journal file a recorder appends to: one `write` a step, so a step is in the file once the call returns,
/// whatever happens to the process next (SPEC section 10).
///
/// A new journal (and each compaction) is written whole to `PATH.new` and renamed over `PATH`, so a process killed
/// meanwhile leaves the previous journal, never half of one.
final class JournalWriter {
    let path: String
    /// `fsync` after each write, for power loss too (process death never needs it).
    let synchronizes: Bool
    private var descriptor: Int32
    /// Records written after the header.
    private(set) var recordCount = 0
    /// Bytes of those records' JSON.
    private(set) var recordBytes = 0
    private var buffer: [UInt8] = []

    /// Writes a journal holding `header` and one record for each of `steps` (numbered from `firstSequence`),
    /// replacing any file at `path` at once.
    init(
        path: String, header: JournalLayout.Header, steps: some Collection<Step>, firstSequence: UInt64, synchronizes: Bool
    ) throws(JournalError) {
        self.path = path
        self.synchronizes = synchronizes
        var bytes = JournalLayout.headerBytes(header)
        guard bytes.count - JournalLayout.headerPrefixSize <= JournalLayout.maximumHeaderSize else {
            throw JournalError(
                .writeFailed, path: path,
                "the journal header would take \(bytes.count) bytes, more than \(JournalLayout.maximumHeaderSize); use a smaller manifest")
        }
        for (index, step) in steps.enumerated() {
            recordBytes += JournalLayout.appendRecord(sequence: firstSequence + UInt64(index), to: &bytes) {
                step.writeCanonicalJSON(into: &$0)
            }
        }
        recordCount = steps.count
        let temporary = path + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure(path: temporary, doing: "could not create the journal") }
        do throws(JournalError) {
            try Self.write(bytes, to: descriptor, path: temporary)
            if synchronizes, fsync(descriptor) != 0 { throw Self.failure(path: temporary, doing: "could not flush the journal to disk") }
            guard rename(temporary, path) == 0 else { throw Self.failure(path: path, doing: "could not move the new journal into place") }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Appends the record of `step`, numbered `sequence`; it is in the file when this returns.
    /// - Returns: the length of the step's canonical JSON.
    func append(_ step: Step, sequence: UInt64) throws(JournalError) -> Int {
        buffer.removeAll(keepingCapacity: true)
        let length = JournalLayout.appendRecord(sequence: sequence, to: &buffer) { step.writeCanonicalJSON(into: &$0) }
        try Self.write(buffer, to: descriptor, path: path)
        if synchronizes, fsync(descriptor) != 0 { throw Self.failure(path: path, doing: "could not flush the journal to disk") }
        recordCount += 1
        recordBytes += length
        return length
    }

    /// Appends the record that says the app ended the session (``JournalLayout/endSequence``); nothing follows it.
    func appendEnd() throws(JournalError) {
        buffer.removeAll(keepingCapacity: true)
        JournalLayout.appendRecord(sequence: JournalLayout.endSequence, to: &buffer) { $0 += JournalLayout.endJSON }
        try Self.write(buffer, to: descriptor, path: path)
        if synchronizes, fsync(descriptor) != 0 { throw Self.failure(path: path, doing: "could not flush the journal to disk") }
    }

    /// Writes all of `bytes`, going on after a partial write or an interrupted call.
    private static func write(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(JournalError) {
        var failure: JournalError?
        bytes.withUnsafeBytes { raw in
            // An empty buffer may have no address; there is nothing to write then.
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let written = Glibc.write(descriptor, base + offset, raw.count - offset)
                #else
                let written = Darwin.write(descriptor, base + offset, raw.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = Self.failure(path: path, doing: "could not write to the journal")
                    return
                }
                offset += written
            }
        }
        if let failure { throw failure }
    }

    private static func failure(path: String, doing: String) -> JournalError {
        let reason = String(cString: strerror(errno))
        return JournalError(.writeFailed, path: path, "\(doing): \(reason)")
    }
}
