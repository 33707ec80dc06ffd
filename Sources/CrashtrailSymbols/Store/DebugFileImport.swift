import CrashtrailCore
import CrashtrailReports
import CrashtrailStore
import Crypto
import Foundation

/// `crashtrail symbols add` (SPEC section 16): the debug files among the paths given, each slice stored by its UUID,
/// then the stored reports that were waiting for them derived again and moved to their new groups.
package struct DebugFileImport: Sendable {
    /// What became of one slice.
    package struct Slice: Hashable, Sendable {
        package var uuid: String
        package var arch: String
        package var name: String
        package var kind: String
        /// Whether the store did not have it.
        package var isNew: Bool
        /// The file it came from, as given.
        package var source: String
    }

    /// What the import did.
    package struct Result: Sendable {
        package var slices: [Slice] = []
        /// Paths, files or archives that gave no slice, each with why.
        package var refused: [(name: String, reason: String)] = []
        /// The stored reports derived again with the new debug files, and how many changed.
        package var rederived = ReprocessSummary()
        /// Why stored reports could not be symbolicated with them, when they cannot (no `llvm-symbolizer`).
        package var notice: String?
    }

    /// What the import reports as it goes.
    package enum Progress: Sendable {
        case slice(Slice)
        case refused(name: String, reason: String)
        case rederived(done: Int, total: Int)
    }

    let store: ReportStore
    /// Derives a stored report again with a symbolicator that knows the new debug files: the intake path's
    /// `PayloadDeriver`, which this target cannot name (the intake target depends on this one).
    let deriving: @Sendable (Symbolicator) -> any ReportDeriving
    /// The clock a stored file's time of upload is read from.
    package let time: TimeSource

    /// An import into `store` that derives waiting reports again with `deriving`.
    package init(
        store: ReportStore, time: TimeSource = .system, deriving: @escaping @Sendable (Symbolicator) -> any ReportDeriving
    ) {
        self.store = store
        self.time = time
        self.deriving = deriving
    }

    /// Imports the debug files under `paths`, then derives again the reports waiting for them.
    /// - Parameters:
    ///   - paths: dSYM bundles, folders, zip archives and Mach-O files.
    ///   - project: the project whose crashes they symbolicate (SPEC section 19).
    ///   - given: names frames with the store's debug files; one is made when nil.
    ///   - progress: told each slice, refusal and batch of reports.
    /// - Returns: what was stored and derived again.
    /// - Throws: `StoreError` when the store cannot be written or read.
    package func add(
        _ paths: [String], project: ProjectID, symbolicator given: Symbolicator? = nil, progress: @escaping (Progress) -> Void = { _ in }
    ) throws(StoreError) -> Result {
        var result = Result()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("crashtrail-symbols-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (candidates, refused) = DebugFileFinder(scratch: scratch).candidates(in: paths)
        for refusal in refused {
            result.refused.append((refusal.name, refusal.reason))
            progress(.refused(name: refusal.name, reason: refusal.reason))
        }
        for candidate in candidates {
            do {
                for slice in try store(candidate, project: project) {
                    result.slices.append(slice)
                    progress(.slice(slice))
                }
            } catch let error as StoreError {
                throw error
            } catch {
                result.refused.append((candidate.name, "\(error)"))
                progress(.refused(name: candidate.name, reason: "\(error)"))
            }
        }
        let (rederived, notice) = try rederivePending(symbolicator: given, progress: progress)
        result.rederived = rederived
        result.notice = notice
        return result
    }

    /// Derives again every stored report whose frames name an image with a stored debug file it was not derived with:
    /// those the files just stored describe, and those a run killed midway left.
    /// - Parameters:
    ///   - given: names frames with the store's debug files; one is made when nil.
    ///   - progress: told each batch of reports.
    /// - Returns: what was derived again, and why reports could not be symbolicated when they cannot.
    /// - Throws: `StoreError`.
    package func rederivePending(
        symbolicator given: Symbolicator? = nil, progress: @escaping (Progress) -> Void = { _ in }
    ) throws(StoreError) -> (rederived: ReprocessSummary, notice: String?) {
        let symbolicator: Symbolicator
        if let given {
            symbolicator = given
            try given.refresh()
        } else {
            symbolicator = try Symbolicator(store: store)
        }
        guard symbolicator.canSymbolicate else {
            return (
                ReprocessSummary(),
                "no llvm-symbolizer was found, so stored reports are not symbolicated yet; install it (apt-get install llvm, or it comes with the Swift toolchain) or set \(SymbolizerLocator.environmentVariable), then run crashtrail symbols add again"
            )
        }
        let waiting = try store.reportsAwaitingStoredDebugFiles()
        let rederived = try store.deriveAgain(ids: waiting, with: deriving(symbolicator)) {
            progress(.rederived(done: $0, total: $1))
        }
        return (rederived, symbolicator.lastFailure?.description)
    }

    /// Stores each slice of the Mach-O file `candidate`, streamed from the file in chunks.
    /// - Throws: `MachOError` naming the file, or `StoreError`.
    package func store(_ candidate: DebugFileFinder.Candidate, project: ProjectID) throws -> [Slice] {
        let source = try FileByteSource(path: candidate.path)
        let name = URL(fileURLWithPath: candidate.name.split(separator: ":").last.map(String.init) ?? candidate.name).lastPathComponent
        return try MachOReader.slices(of: source, name: candidate.name).map { slice in
            let chunkSize = ReportStore.debugFileChunkSize
            func chunk(_ index: Int) throws -> [UInt8]? {
                let offset = UInt64(index) * UInt64(chunkSize)
                guard offset < slice.size else { return nil }
                return try source.read(at: slice.fileOffset + offset, count: Int(min(UInt64(chunkSize), slice.size - offset)))
            }
            // The store takes the slice's SHA-1 from the chunks as it stores them: the slice is read once.
            let file = DebugFile(
                uuid: slice.uuid, arch: slice.arch, name: name, kind: slice.kind.rawValue, textVMAddr: slice.textVMAddr,
                size: Int64(slice.size), sha1: "", added: time.rfc3339(), project: .one(project))
            let isNew = try store.addDebugFile(file, chunk: chunk).isNew
            return Slice(uuid: slice.uuid, arch: slice.arch, name: name, kind: slice.kind.rawValue, isNew: isNew, source: candidate.name)
        }
    }
}
