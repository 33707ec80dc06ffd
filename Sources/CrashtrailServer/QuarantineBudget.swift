import Foundation
import Synchronization

/// The most the quarantine folder may hold (SPEC section 19).
///
/// A refused payload is copied there only while the folder holds less than its limit, so a client that sends refusals
/// without end cannot fill the disk. Past it, the refusal is still answered 400 and logged, and counted in `/metrics`,
/// without its copy.
final class QuarantineBudget: Sendable {
    let limit: Int64
    private let used: Mutex<Int64>

    /// A budget of `limit` bytes for `folder`, counting what it holds already.
    init(folder: URL, limit: Int64) {
        self.limit = limit
        used = Mutex(Self.size(of: folder))
    }

    /// Takes room for a copy of `bytes` bytes (and its reason).
    /// - Returns: whether it fits; when it does not, nothing was taken.
    func take(_ bytes: Int) -> Bool {
        used.withLock { used in
            let needed = Int64(bytes) + 1024
            guard used + needed <= limit else { return false }
            used += needed
            return true
        }
    }

    /// The bytes of the files a folder holds (0 when it does not exist yet).
    static func size(of folder: URL) -> Int64 {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        return names.reduce(Int64(0)) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            return total + ((attributes?[.size] as? Int64) ?? 0)
        }
    }
}
