import CrashtrailCore
import Foundation
import Synchronization

/// The free disk below which intake refuses before writing (SPEC section 19): reports are answered 503 with
/// `Retry-After` while the folders the service writes (the SQLite store's, the quarantine) have less free space than the
/// floor, so a full disk never turns an acknowledged report into a lost one.
///
/// Free space is measured at most once a second. A PostgreSQL store's disk is the database server's, which the service
/// cannot see: only the quarantine's folder is measured then.
final class DiskFloor: Sendable {
    private struct Reading {
        var free: Int64?
        var at: UInt64
        var measured: Bool
    }

    let folders: [String]
    let floor: Int64
    private let time: TimeSource
    private let reading: Mutex<Reading>
    /// What measures a folder's free bytes: `statvfs`, or a test's stand-in.
    private let measure: @Sendable (String) -> Int64?

    init(folders: [String], floor: Int64, time: TimeSource, measure: @escaping @Sendable (String) -> Int64? = DiskFloor.freeBytes) {
        self.folders = folders
        self.floor = floor
        self.time = time
        self.measure = measure
        reading = Mutex(Reading(free: nil, at: 0, measured: false))
    }

    /// The least free space among the folders, measured again when the last reading is older than a second.
    var free: Int64? {
        let now = time.uptimeNanoseconds()
        if let fresh = reading.withLock({ $0.measured && now &- $0.at < 1_000_000_000 ? Optional($0.free) : nil }) { return fresh }
        let free = folders.compactMap(measure).min()
        reading.withLock { $0 = Reading(free: free, at: now, measured: true) }
        return free
    }

    /// Whether there is room to write: more free space than the floor (or a floor of 0).
    var hasRoom: Bool {
        guard floor > 0, let free else { return true }
        return free >= floor
    }

    /// The bytes free to this user in the file system that holds `path` (or its nearest existing parent).
    @Sendable static func freeBytes(_ path: String) -> Int64? {
        var url = URL(fileURLWithPath: path)
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" { url.deleteLastPathComponent() }
        var info = statvfs()
        guard statvfs(url.path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
