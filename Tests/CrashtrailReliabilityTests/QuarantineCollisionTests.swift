import CrashtrailTestSupport
import Foundation
import Testing

/// Regression test for /tmp/reliability-findings.md F1: quarantine names that collide.
@Suite("Quarantine agrees with what was refused")
struct QuarantineCollisionTests {
    @Test("Refused inputs whose names sanitize alike each keep their own quarantined copy and reason")
    func collidingNames() throws {
        // Given: refused inputs whose sanitized names are equal ("a/b.json" and "a_b.json" both become
        // "…_a_b.json"; "z.reason.txt" is also input "z"'s reason file; long paths share their last 180 characters)
        let folder = try TemporaryFolder("crashtrail-collide")
        defer { folder.remove() }
        let long = String(repeating: "q", count: 200)
        let names = ["a/b.json", "a_b.json", "a b.json", "a\nb.json", "z", "z.reason.txt", "d1/" + long, "d2/" + long]
        for (index, name) in names.enumerated() { try folder.write("not a crash report \(index)", to: "in/\(name)") }
        let quarantine = folder.url.appendingPathComponent("q")
        // When
        let (result, summary) = try ReliabilityCLI.ingest(
            [folder.url.appendingPathComponent("in").path], store: folder.url.appendingPathComponent("s.sqlite"),
            quarantine: quarantine, in: folder.url)
        // Then: one copy per refused input, each with its own bytes
        #expect(result.status == 0, "\(ReliabilityCLI.describe(result))")
        #expect(ReliabilityCLI.count(summary, "rejected") == names.count)
        let snapshot = try StoreSnapshot.read(store: folder.url.appendingPathComponent("s.sqlite"), quarantine: quarantine)
        let copies = snapshot.quarantine.filter { !$0.key.hasSuffix(".reason.txt") }
        let contents = Set(copies.values.map { String(decoding: $0, as: UTF8.self) })
        #expect(
            contents.count == names.count,
            "\(names.count) refused inputs, \(contents.count) distinct copies in \(snapshot.quarantine.keys.sorted())")
        let reasons = snapshot.quarantine.filter { $0.key.hasSuffix(".reason.txt") }
        #expect(reasons.count == names.count, "\(reasons.count) reason files for \(names.count) refused inputs")
    }
}
