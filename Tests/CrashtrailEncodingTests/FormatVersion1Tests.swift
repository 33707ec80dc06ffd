import CrashtrailCore
import Foundation
import Testing

@testable import CrashtrailEncoding

/// Apps keep sending what the build they shipped with wrote: trails of format version 1 must decode as before.
@Suite("Trails in format version 1, as older builds wrote them")
struct FormatVersion1Tests {
    /// The `ct1:` texts of the sample reports, written by a build that wrote format version 1.
    static func sampleTexts() throws -> [(file: String, text: String)] {
        let folder = TrailFixtures.packageRoot.appendingPathComponent("Samples/reports")
        var texts: [(String, String)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".json") {
            let content = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            guard let range = content.range(of: #"ct1:[A-Za-z0-9_-]+"#, options: .regularExpression) else { continue }
            texts.append((file, String(content[range])))
        }
        return texts
    }

    @Test("The sample reports' trails are version 1, decode, and encode again to the very same bytes")
    func sampleReports() throws {
        let codec = TrailCodec(manifests: [TrailFixtures.pirateBay, TrailFixtures.harbor])
        let samples = try Self.sampleTexts()
        #expect(samples.count >= 3)
        for (file, text) in samples {
            let binary = try TextForm.decode(text)
            #expect(binary[2] == 1, "\(file) holds a version 1 trail")
            let trail = try codec.decode(text: text)
            // The version 1 encoder kept for tests writes what older builds wrote, byte for byte.
            #expect(try codec.encodeBinary(trail, formatVersion: 1) == binary, "\(file)")
            // This build writes version 2, smaller, and it decodes to the same trail.
            let current = try codec.encodeBinary(trail)
            #expect(current[2] == 2)
            #expect(current.count < binary.count, "\(file): \(current.count) bytes against \(binary.count)")
            #expect(try codec.decodeBinary(current) == trail)
            #expect(TrailCodec.recordedDictionaryID(binary) == TrailCodec.recordedDictionaryID(current))
        }
    }

    @Test("Generated trails encoded in version 1 decode to the same trail", arguments: 0..<20)
    func generated(seed: UInt64) throws {
        for manifest in [TrailFixtures.pirateBay, TrailFixtures.harbor] {
            let trail = TrailFixtures.randomTrail(manifest: manifest, seed: seed + 500, maximumSteps: 120)
            for codec in [TrailCodec(manifests: [manifest]), TrailCodec()] {
                let binary = try codec.encodeBinary(trail, formatVersion: 1)
                #expect(binary[2] == 1)
                #expect(try codec.decodeBinary(binary).canonicalJSON == trail.canonicalJSON)
                #expect(try codec.decode(text: TrailCodec.text(ofBinary: binary)).canonicalJSON == trail.canonicalJSON)
            }
        }
    }
}
