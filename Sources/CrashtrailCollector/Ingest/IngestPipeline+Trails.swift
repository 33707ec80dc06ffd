import CrashtrailCore
import CrashtrailEncoding
import CrashtrailStore
import Dispatch
import Foundation

/// Joining separate trail files (`--trails DIR`) to the stored crashes they belong to.
extension IngestPipeline {
    /// Reads every trail file in `directory` (decoding on the workers while the writer joins the batch before)
    /// and attaches each to the stored crash it belongs to, one transaction a batch.
    func joinTrails(from directory: String, writer: BatchWriter) throws(IngestError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            // The reports already parsed are stored before the job says why it stops.
            try writer.withState { _ in }
            throw IngestError(.trails, "the trails folder \(directory) does not exist or is not a folder")
        }
        let tolerance = options.joinTolerance
        let maximumSize = options.maximumPayloadSize
        var batch: [String] = []
        func flush() throws(IngestError) {
            guard !batch.isEmpty else { return }
            let decoded = decodeTrails(batch)
            batch.removeAll(keepingCapacity: true)
            try writer.submit { (state, store) throws(IngestError) in
                try Self.join(decoded, from: directory, tolerance: tolerance, maximumSize: maximumSize, state: &state, store: store)
            }
        }
        for path in InputWalker(paths: [directory]) {
            batch.append(path)
            if batch.count >= options.batchSize { try flush() }
        }
        try flush()
    }

    /// Joins a batch of decoded trail files to their stored crashes in one transaction, and quarantines the
    /// refused ones.
    private static func join(
        _ decoded: [(String, Result<JoinableTrail, RejectionError>)], from directory: String, tolerance: Int64,
        maximumSize: Int, state: inout RunState, store: ReportStore
    ) throws(IngestError) {
        var joined: [String] = []
        var rejections: [(RejectionError, String)] = []
        do {
            (joined, rejections) = try store.write { db in
                // Kept inside: a backend may run the transaction again after a lost connection.
                var joined: [String] = []
                var rejections: [(RejectionError, String)] = []
                for (path, result) in decoded {
                    switch result {
                    case .failure(let reason): rejections.append((reason, path))
                    case .success(let file):
                        if let id = try file.join(tolerance: tolerance, in: db) { joined.append(id) }
                    }
                }
                return (joined, rejections)
            }
        } catch {
            throw IngestError(.store, "could not join trails from \(directory): \(error)")
        }
        state.summary.inputs += decoded.count
        state.summary.trailsJoined += joined.count
        for id in joined {
            switch state.newMissing[id] {
            case true?: state.joinedNewInferred += 1
            case false?: state.joinedNew += 1
            case nil: break
            }
        }
        for (reason, path) in rejections {
            guard reason.code != .tooLarge else {
                try state.rejectReasonOnly(reason, source: path)
                continue
            }
            let bytes = (try? InputFile.readOrRefuse(path, maximumSize: maximumSize, kind: .trail).get()) ?? []
            try state.reject(reason, source: path, bytes: bytes)
        }
    }

    /// Decodes trail files on the workers, with each one's session start in milliseconds.
    private func decodeTrails(_ paths: [String]) -> [(String, Result<JoinableTrail, RejectionError>)] {
        let slots = IndexedSlots<(String, Result<JoinableTrail, RejectionError>)>(
            count: paths.count, placeholder: ("", .failure(RejectionError(.undecodableTrail, "not decoded"))))
        let jobs = min(options.jobs, paths.count)
        let decoder = processor.decoder
        let claims = WorkClaims(count: paths.count)
        let maximumSize = options.maximumPayloadSize
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
                    result = .success(try JoinableTrail(bytes: bytes, decoder: decoder))
                } catch {
                    result = .failure(error)
                }
                slots.set(index, (path, result))
            }
        }
        return slots.values
    }
}
