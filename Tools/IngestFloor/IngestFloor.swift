import CrashtrailStore
import Crypto
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The floor of the work `crashtrail ingest` cannot skip, whatever its parser: read every payload, hash it
/// (SHA-256, for report IDs and duplicates) and compress it for the store (`PayloadCompression`, as ingest
/// does), on `--jobs` threads.
///
/// No parsing, no trails, no SQLite. `Tools/ingest-bench.sh` runs it beside the
/// contestants, so the table shows how much of ingest's time this part alone takes.
///
///     crashtrail-ingest-floor REPORTS_DIR [--jobs N]
///
/// Prints one line: `reports N bytes B compressed C seconds S`, where S is the time the threads took (the file
/// listing before them is not counted: ingest walks its folders as it goes).
@main
struct IngestFloor {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        if let index = arguments.firstIndex(of: "--jobs"), index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 {
            jobs = value
            arguments.removeSubrange(index...index + 1)
        }
        guard arguments.count == 1 else {
            FileHandle.standardError.write(Data("usage: crashtrail-ingest-floor REPORTS_DIR [--jobs N]\n".utf8))
            exit(2)
        }
        let files = regularFiles(under: arguments[0])
        guard !files.isEmpty else {
            FileHandle.standardError.write(Data("error: no files under \(arguments[0])\n".utf8))
            exit(1)
        }
        let started = DispatchTime.now()
        let totals = Totals()
        let next = Counter()
        DispatchQueue.concurrentPerform(iterations: min(jobs, files.count)) { _ in
            var bytes = 0
            var compressed = 0
            var digests: UInt8 = 0
            while let index = next.claim(below: files.count) {
                guard let data = FileManager.default.contents(atPath: files[index]) else { continue }
                data.withUnsafeBytes { raw in
                    let buffer = raw.bindMemory(to: UInt8.self)
                    digests ^= SHA256.hash(data: raw).withUnsafeBytes { $0.first ?? 0 }
                    compressed += PayloadCompression.compressed(buffer).count
                }
                bytes += data.count
            }
            totals.add(bytes: bytes, compressed: compressed, check: digests)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        print("reports \(files.count) bytes \(totals.bytes) compressed \(totals.compressed) seconds \(String(format: "%.3f", seconds))")
    }

    static func regularFiles(under root: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        for case let relative as String in walker {
            let path = root + "/" + relative
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                !(relative as NSString).lastPathComponent.hasPrefix(".")
            {
                files.append(path)
            }
        }
        return files.sorted()
    }
}

/// Hands out file indices to the threads, one at a time.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func claim(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}

/// What the threads read and wrote, summed.
final class Totals: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var bytes = 0
    private(set) var compressed = 0
    private(set) var check: UInt8 = 0

    func add(bytes: Int, compressed: Int, check: UInt8) {
        lock.lock()
        defer { lock.unlock() }
        self.bytes += bytes
        self.compressed += compressed
        self.check ^= check
    }
}
