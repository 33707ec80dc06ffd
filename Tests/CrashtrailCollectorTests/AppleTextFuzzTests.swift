import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailReports

/// A seeded fuzz of the Apple text reader.
///
/// Real reports, mutated a thousand ways (bytes changed, ranges cut or repeated, NULs, headings and garbage
/// inserted), are read in part or refused with a reason, never a crash or a hang. A trap here ends the test
/// process, which fails the run.
@Suite("Apple text reader fuzz")
struct AppleTextFuzzTests {
    static func seeds() throws -> [[UInt8]] {
        let root = PackageRoot.url
        let folders = [
            root.appendingPathComponent("Samples/apple-text"),
            root.appendingPathComponent("Tests/Fixtures/differential/apple-crash-report-parser"),
            root.appendingPathComponent("Tests/Fixtures/differential/kscrash"),
        ]
        var seeds: [[UInt8]] = []
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where !name.hasSuffix(".json") {
                guard !name.hasSuffix(".snap"), name != "LICENSE" else { continue }
                seeds.append(Array(try Data(contentsOf: folder.appendingPathComponent(name))))
            }
        }
        return seeds
    }

    static func mutate(_ input: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            let length = min(bytes.count - at, Int.random(in: 1...400, using: &generator))
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: bytes[at] = UInt8.random(in: 0...255, using: &generator)
            case 1: bytes.removeSubrange(at..<(at + length))
            case 2: bytes.insert(contentsOf: bytes[at..<(at + length)], at: at)
            case 3: bytes.insert(contentsOf: [0, 0, 0], at: at)
            case 4: bytes.insert(contentsOf: Array("\nThread 0 Crashed:: x\n0   A B   0x1 (".utf8), at: at)
            default: bytes.insert(contentsOf: (0..<length).map { _ in UInt8.random(in: 32...126, using: &generator) }, at: at)
            }
        }
        return bytes
    }

    @Test("Mutated real reports are read in part or refused, never a crash")
    func mutations() throws {
        let seeds = try Self.seeds()
        #expect(seeds.count >= 10)
        var generator = SplitMix64(seed: 2026)
        var read = 0
        var refused = 0
        for round in 0..<1_000 {
            let input = Self.mutate(seeds[round % seeds.count], using: &generator)
            do {
                let parsed = try AppleTextParser.parse(input)
                _ = CrashSignature.make(exception: parsed.exception, frames: parsed.frames)
                read += 1
            } catch {
                refused += 1
                #expect(!"\(error)".isEmpty)
            }
        }
        // Most mutations leave a readable report; some make it unreadable, and are refused with a reason.
        #expect(read > 300 && refused > 0, "read \(read), refused \(refused)")
    }
}
