import CrashtrailCore
import CrashtrailEncoding
import CrashtrailFormats
import CrashtrailStore
import Dispatch
import Foundation

/// Joining separate trail files (`--trails DIR`) to the stored crashes they belong to.
extension IngestPipeline {
    /// Reads every trail file in `directory` (decoding on the workers while the writer joins the batch before)
    /// and attaches each to the stored crash it belongs to, one transaction a batch.
    func joinTrails(from directory: String, run: IngestRun) throws(IngestError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            // The reports already parsed are stored before the job says why it stops.
            _ = try run.finish { _ in }
            throw IngestError(.trails, "the trails folder \(directory) does not exist or is not a folder")
        }
        var batch: [String] = []
        func flush() throws(IngestError) {
            guard !batch.isEmpty else { return }
            let decoded = decodeTrails(batch)
            batch.removeAll(keepingCapacity: true)
            try run.join(
                decoded, tolerance: options.joinTolerance, from: directory, maximumSize: options.maximumPayloadSize,
                waits: options.waitingTrails)
        }
        for path in InputWalker(paths: [directory]) {
            batch.append(path)
            if batch.count >= options.batchSize { try flush() }
        }
        try flush()
    }

    /// Decodes trail files on the workers, with each one's session start in milliseconds.
    private func decodeTrails(_ paths: [String]) -> [(path: String, result: Result<JoinableTrail, RejectionError>)] {
        let slots = IndexedSlots<(path: String, result: Result<JoinableTrail, RejectionError>)>(
            count: paths.count, placeholder: ("", .failure(RejectionError(.undecodableTrail, "not decoded"))))
        let jobs = min(options.jobs, paths.count)
        let decoder = processor.decoder
        let claims = WorkClaims(count: paths.count)
        let maximumSize = options.maximumPayloadSize
        let project = options.project
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let index = claims.next() {
                let path = paths[index]
                let result: Result<JoinableTrail, RejectionError>
                let bytes: [UInt8]
                switch InputFile.readOrRefuse(path, maximumSize: maximumSize, kind: .trail) {
                case .success(let read): bytes = read
                case .failure(let reason):
                    slots.set(index, (path, .failure(reason)))
                    continue
                }
                do throws(RejectionError) {
                    var trail = try JoinableTrail(bytes: bytes, decoder: decoder)
                    trail.project = project
                    result = .success(trail)
                } catch {
                    result = .failure(error)
                }
                slots.set(index, (path, result))
            }
        }
        return slots.values
    }
}
