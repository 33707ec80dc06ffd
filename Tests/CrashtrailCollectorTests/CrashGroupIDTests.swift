import Foundation
import Testing

@testable import CrashtrailStore

@Suite("Crash group IDs")
struct CrashGroupIDTests {
    /// Expected values computed outside Swift: `printf '%s' SIG | sha256sum | cut -c1-12`.
    @Test(
        "A group ID is the first 12 hex digits of the SHA-256 of its signature",
        arguments: [
            ("EXC_BAD_ACCESS/SIGSEGV @ ListingViewController.configure(_:) < PirateBay < objc_msgSend", "20a8502d5117"),
            ("", "e3b0c44298fc"),
            ("SIGABRT @ (no frames)", "dab59873e217"),
        ])
    func idOfSignature(signature: String, expected: String) {
        #expect(CrashGroup.id(ofSignature: signature) == expected)
        let group = CrashGroup(signature: signature, count: 1, firstSeen: nil, lastSeen: nil, versions: [], withTrail: 0)
        #expect(group.id == expected)
    }
}

@Suite("Resolving group IDs in the store")
struct GroupPrefixTests {
    @Test("A group is found by its ID or a unique prefix in any case; none or several is a clear error")
    func resolvesPrefixes() throws {
        // Given the samples' groups
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        _ = try TestFiles.ingest([TestFiles.samples.appendingPathComponent("reports").path], store: store, folder: folder)
        let groups = try store.groups()
        #expect(groups.count >= 3)
        for group in groups {
            // When looked up by the whole ID, the shortest unique prefix and upper case
            let others = groups.filter { $0.signature != group.signature }.map(\.id)
            let length = (1...12).first { length in !others.contains { $0.hasPrefix(group.id.prefix(length)) } } ?? 12
            // Then it is that group
            #expect(try store.group(matchingPrefix: group.id).signature == group.signature)
            #expect(try store.group(matchingPrefix: String(group.id.prefix(length))).signature == group.signature)
            #expect(try store.group(matchingPrefix: group.id.uppercased()).signature == group.signature)
            #expect(try store.reports(ReportFilter(signature: group.signature)).count == group.count)
        }
        let missing = #expect(throws: StoreError.self) { try store.group(matchingPrefix: "xyz") }
        #expect(missing?.code == .notFound)
        let empty = #expect(throws: StoreError.self) { try store.group(matchingPrefix: "") }
        #expect(empty?.code == .notFound)
    }
}
