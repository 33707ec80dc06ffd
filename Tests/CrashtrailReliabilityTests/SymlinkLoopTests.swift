import CrashtrailTestSupport
import Foundation
import Testing

/// Regression test for /tmp/reliability-findings.md F9: folders that link back to themselves.
@Suite("Symbolic link loops in the input folders")
struct SymlinkLoopTests {
    @Test("Two links back to the input folder: ingest reads each file once and finishes")
    func twoLoops() throws {
        // Given: in/one.json, in/a -> ., in/b -> . (followed blindly, 2^depth paths)
        let folder = try TemporaryFolder("crashtrail-loops")
        defer { folder.remove() }
        try folder.write(#"{"crashtrail":1,"id":"one","time":"2026-11-02T14:50:00Z"}"#, to: "in/one.json")
        let inputs = folder.url.appendingPathComponent("in")
        for name in ["a", "b"] {
            try FileManager.default.createSymbolicLink(atPath: inputs.appendingPathComponent(name).path, withDestinationPath: ".")
        }
        // When: the job gets 20 seconds
        let job = try IngestProcess(
            runner: try ReliabilityCLI.require(), inputs: [inputs.path], store: folder.url.appendingPathComponent("s.sqlite"),
            quarantine: folder.url.appendingPathComponent("q"), directory: folder.url)
        let deadline = Date().addingTimeInterval(20)
        while job.process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let hung = job.process.isRunning
        job.kill()
        // Then
        #expect(!hung, "crashtrail ingest was still walking the folder after 20 s")
        #expect(job.stdout.contains(#""inputs":1,"#), "\(job.stdout)")
        #expect(job.stdout.contains(#""rejected":0,"#), "\(job.stdout)")
    }
}
