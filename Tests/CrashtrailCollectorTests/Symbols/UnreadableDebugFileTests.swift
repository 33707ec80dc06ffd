import CrashtrailCore
import CrashtrailIntake
import CrashtrailStore
import CrashtrailSymbols
import CrashtrailTestSupport
import Foundation
import Synchronization
import Testing

/// A debug file llvm-symbolizer cannot read (its `Error` answer) is no answer.
///
/// Its image is symbolicated later, from a copy written out again, never marked done with nothing named.
@Suite("A debug file the symbolizer cannot read")
struct UnreadableDebugFileTests {
    @Test(
        "An Error answer leaves the image unanswered and holds the file back, then the file is written out again and answers",
        .enabled(
            if: SymbolicDifferentialTests.symbolizerFound || ConformanceSuite.isRequired,
            "llvm-symbolizer was not found (apt-get install llvm)"))
    func errorAnswer() throws {
        // Given a dSYM in the store, a symbolicator on a clock the test moves, and an answer from it
        let fixtures = SymbolFixtures.shared
        let slice = try #require(try fixtures.reference().slices.first { $0.kind == "dsym" })
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        _ = try DebugFileImport(store: store, decoder: TestFiles.codec()).add([fixtures.url(slice.file).path], project: 1)
        let stored = try #require(try store.debugFiles().first { $0.uuid == slice.uuid.lowercased() })
        // A symbolizer that answers as llvm-symbolizer does, except while the file `unreadable` exists: then it answers
        // each address with the Error llvm-symbolizer gives for a file it cannot open.
        let real = try #require(SymbolizerLocator.locate())
        let flag = folder.appendingPathComponent("unreadable")
        let script = folder.appendingPathComponent("symbolizer.sh")
        try """
        #!/bin/sh
        while IFS= read -r line; do
          if [ -e '\(flag.path)' ]; then
            echo '{"Address":"0x0","Error":{"Message":"No such file or directory"},"ModuleName":"gone"}'
          else
            echo "$line" | '\(real)' "$@"
          fi
        done
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        let uptime = Mutex<UInt64>(1_000_000_000)
        let time = TimeSource(milliseconds: { 0 }, uptimeNanoseconds: { uptime.withLock { $0 } })
        let cache = folder.appendingPathComponent("cache")
        let symbolicator = try Symbolicator(store: store, folder: cache, executable: script.path, workers: 1, time: time)
        let addresses = slice.lookups.map { stored.textVMAddr + $0.offset }
        try #require(addresses.count >= 3)
        func lookUp(_ index: Int) -> (frames: [SymbolicatedFrame]?, answered: Bool) {
            let result = symbolicator.lookUp([Symbolicator.Lookup(uuid: stored.uuid, address: addresses[index])])
            return (result.frames[0], result.answered.contains(stored.uuid))
        }
        let first = lookUp(0)
        #expect(first.answered && first.frames != nil)

        // When the symbolizer cannot read the file, and another address is asked, then a third
        #expect(FileManager.default.createFile(atPath: flag.path, contents: nil))
        let unread = lookUp(1)
        let held = lookUp(2)
        try FileManager.default.removeItem(at: flag)

        // Then it is no answer: nothing named, the image not answered, the failure said, and the file held back
        #expect(!unread.answered && unread.frames == nil)
        #expect(symbolicator.lastFailure?.code == .unreadableDebugFile, "\(String(describing: symbolicator.lastFailure))")
        #expect(!held.answered, "the file waits out its backoff")

        // When the backoff has passed: the file is written out again and answers
        uptime.withLock { $0 += UInt64((Symbolicator.backoff + 1) * 1e9) }
        let again = lookUp(1)
        #expect(again.answered && again.frames != nil)
    }
}
