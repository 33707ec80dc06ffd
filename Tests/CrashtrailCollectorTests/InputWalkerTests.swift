import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailIntake
@testable import CrashtrailStore

/// The walk yields files in a stable order, skips the excluded folders and files, and lists each folder once.
@Suite struct InputWalkerTests {
    @Test func lastComponentAgreesWithURL() {
        let paths = [
            "a", "/a", "a/b", "/a/b/c.json", "a/b/", "a/b//", "/", "//", "./a", "../x/y", "a/../b", "reports/0000/X.ips",
            "dir with spaces/file", "ünïcode/fïle", "/tmp/crashtrail-quarantine/",
        ]
        for path in paths {
            #expect(String(InputWalker.lastComponent(of: path)) == URL(fileURLWithPath: path).lastPathComponent, "\(path)")
        }
        #expect(InputWalker.lastComponent(of: "") == "")
        // URL standardizes a final `.` or `..`; the walker standardizes such paths itself before comparing.
        #expect(InputWalker.lastComponent(of: "a/.") == ".")
        #expect(InputWalker.lastComponent(of: "a/..") == "..")
    }

    @Test func walksSortedAndSkipsExcludedFolders() throws {
        let folder = try TemporaryFolder("crashtrail-walker")
        defer { folder.remove() }
        let root = folder.url
        for relative in ["b/2.json", "b/1.json", "a.json", "quarantine/x.json", "c/quarantine/y.json", ".hidden/z.json", "c/.dot"] {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: url)
        }
        // A link back up the tree is listed once, not followed forever.
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("b/up").path, withDestinationPath: root.path)
        let excluded: Set<String> = [root.appendingPathComponent("quarantine").standardizedFileURL.path]
        let walked = Array(InputWalker(paths: [root.path, root.appendingPathComponent("missing.json").path], excluding: excluded))
        let relative = walked.map { String($0.dropFirst(root.path.count + 1)) }
        #expect(relative == ["a.json", "b/1.json", "b/2.json", "c/quarantine/y.json", "missing.json"])
        #expect(InputWalker.count(paths: [root.path], excluding: excluded) == 4)
        // The excluded folder named through a final `.` is still skipped.
        let dotted = root.appendingPathComponent("quarantine").path + "/."
        #expect(Array(InputWalker(paths: [dotted], excluding: excluded)).isEmpty)
    }
}
