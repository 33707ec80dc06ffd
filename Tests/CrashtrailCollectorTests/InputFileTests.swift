import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailIntake
@testable import CrashtrailStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Input files are read with POSIX calls: whole, within the size limit, and never blocking on special files.
@Suite struct InputFileTests {
    private func bytes(_ outcome: InputFile.Outcome) -> [UInt8]? {
        if case .bytes(let bytes) = outcome { bytes } else { nil }
    }

    @Test func readsRegularFilesWhole() throws {
        let folder = try TemporaryFolder("crashtrail-inputfile")
        defer { folder.remove() }
        var random = SplitMix64(seed: 7)
        for size in [0, 1, 4_095, 4_096, 4_097, 1 << 20] {
            let content = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let url = folder.url.appendingPathComponent("f\(size)")
            try Data(content).write(to: url)
            #expect(bytes(InputFile.read(url.path, maximumSize: 1 << 21)) == content, "\(size) bytes")
        }
    }

    @Test func sizeLimitIsInclusive() throws {
        let folder = try TemporaryFolder("crashtrail-inputfile")
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("f")
        try Data(repeating: 0x41, count: 100).write(to: url)
        #expect(bytes(InputFile.read(url.path, maximumSize: 100))?.count == 100)
        guard case .tooLarge(let size) = InputFile.read(url.path, maximumSize: 99) else {
            Issue.record("a file over the limit must be refused as too large")
            return
        }
        #expect(size == 100)
    }

    @Test func specialFilesFoldersAndMissingFilesAreUnreadableWithAReason() throws {
        let folder = try TemporaryFolder("crashtrail-inputfile")
        defer { folder.remove() }
        let fifo = folder.url.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases: [(String, String)] = [
            (fifo, "not a regular file"),
            ("/dev/zero", "not a regular file"),
            (folder.url.path, "folder"),
            (folder.url.appendingPathComponent("absent").path, "No such file"),
        ]
        for (path, reason) in cases {
            guard case .unreadable(let why) = InputFile.read(path, maximumSize: 1 << 20) else {
                Issue.record("\(path) must be unreadable")
                continue
            }
            #expect(why.contains(reason), "\(path): \(why)")
        }
    }
}
