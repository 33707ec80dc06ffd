import CrashtrailCore
import CrashtrailEncoding
import Testing

@Suite("The manifest a trail was encoded with")
struct RecordedDictionaryTests {
    @Test("Read from the header alone, in every encoded form, without the manifest")
    func everyForm() throws {
        let trail = TrailFixtures.hundredStepTrail()
        let withManifest = TrailCodec(manifests: [TrailFixtures.pirateBay])
        let id = try #require(withManifest.dictionary(for: trail)).idString
        for form in [TrailForm.binary, .text, .keys(limit: 1024)] {
            #expect(TrailCodec.recordedDictionaryID(try withManifest.encode(trail, as: form)) == id, "\(form)")
            #expect(TrailCodec.recordedDictionaryID(try TrailCodec().encode(trail, as: form)) == nil, "\(form) without a manifest")
        }
        #expect(TrailCodec.recordedDictionaryID(trail.canonicalJSON) == nil)
        for garbage in [[], Array("ct1:!!".utf8), Array("{".utf8), [0xC7, 0x54, 9], Array("hello".utf8)] as [[UInt8]] {
            #expect(TrailCodec.recordedDictionaryID(garbage) == nil)
        }
    }
}
