import CrashtrailCollector
import Foundation
import Testing

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
