import CrashtrailCore
import CrashtrailEncoding
import CrashtrailTestSupport
import Foundation
import Testing

/// Trails that try to exhaust memory or slip bad data through the decoders (SPEC sections 5 and 6).
@Suite("Trail limits")
struct TrailLimitTests {
    @Test("A small binary trail whose body inflates past the 16 MiB cap stops at the cap with a clear error")
    func deflateBombStopsAtDefaultCap() throws {
        // Given: 96 MiB of zeros in about 600 KB, behind a header that lies about the size
        let bomb = DeflateBomb.binaryTrail(declaredLength: 100, inflatedSize: 96 << 20)
        #expect(bomb.count < 700_000)
        // When / Then
        let error = try #require(throws: TrailCodecError.self) { try TrailCodec().decode(bomb) }
        #expect(error.code == .inflatedSizeOverCap, "\(error)")
        #expect(error.message.contains("16777216-byte cap"), "\(error.message)")
    }

    @Test("The inflate cap is configurable and applies to every form")
    func configuredCapAppliesToEveryForm() throws {
        let bomb = DeflateBomb.binaryTrail(declaredLength: 100, inflatedSize: 4 << 20)
        let codec = TrailCodec(limits: .init(maximumInflatedSize: 1 << 20))
        let binary = try #require(throws: TrailCodecError.self) { try codec.decodeBinary(bomb) }
        #expect(binary.code == .inflatedSizeOverCap)
        #expect(binary.message.contains("1048576-byte cap"), "\(binary.message)")
        let text =
            "ct1:"
            + Data(bomb).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let fromText = try #require(throws: TrailCodecError.self) { try codec.decode(text: text) }
        #expect(fromText.code == .inflatedSizeOverCap, "\(fromText)")
    }

    @Test("A header declaring more than the cap is refused before inflating anything")
    func declaredSizeOverCap() throws {
        let lying = DeflateBomb.binaryTrail(declaredLength: 1 << 40, inflatedSize: 10)
        let error = try #require(throws: TrailCodecError.self) { try TrailCodec().decode(lying) }
        #expect(error.code == .declaredSizeOverCap, "\(error)")
    }

    @Test("A body smaller than the cap but larger than declared is refused, not trusted")
    func inflatedMoreThanDeclared() throws {
        let bomb = DeflateBomb.binaryTrail(declaredLength: 100, inflatedSize: 64 << 10)
        let error = try #require(throws: TrailCodecError.self) { try TrailCodec().decode(bomb) }
        #expect(error.code == .corruptBody, "\(error)")
    }

    @Test("Encoded input over the input cap is refused without decoding")
    func inputOverCap() throws {
        let codec = TrailCodec(limits: .init(maximumInflatedSize: 1 << 20, maximumInputSize: 1 << 16))
        let big = Array("ct1:".utf8) + [UInt8](repeating: UInt8(ascii: "A"), count: 1 << 17)
        let error = try #require(throws: TrailCodecError.self) { try codec.decode(big) }
        #expect(error.code == .inputOverCap, "\(error)")
    }

    @Test("A trail of 200,000 steps encodes, decodes losslessly and stays small")
    func manySteps() throws {
        // The 10,000,000-step version runs in Tools/reliability-scale.sh.
        var steps: [Step] = []
        steps.reserveCapacity(200_000)
        for index in 0..<200_000 {
            steps.append(Step(t: Int64(index), index % 2 == 0 ? .push(Destination("item", ["id": .string("L-\(index % 50)")])) : .pop))
        }
        let trail = Trail(
            app: .init(bundleID: "com.example.big", version: "1", build: "1"),
            session: .init(id: "S", started: "2026-11-02T14:45:05Z", pid: 1), steps: steps)
        let codec = TrailCodec()
        let binary = try codec.encodeBinary(trail)
        #expect(binary.count < trail.canonicalJSON.count / 20, "\(binary.count) bytes")
        #expect(try codec.decode(binary) == trail)
    }

    @Test("Times that go back are refused naming the step, in JSON and by the encoder")
    func nonMonotonicTimes() throws {
        let json = """
            {"version":1,"app":{"bundleID":"a","version":"1","build":"1"},"session":{"id":"s","started":"2026-11-02T14:45:05Z","pid":1},
             "steps":[{"t":5,"op":"pop"},{"t":9223372036854775807,"op":"pop"},{"t":-9223372036854775808,"op":"pop"}]}
            """
        let error = try #require(throws: TrailError.self) { try Trail(json: Array(json.utf8)) }
        #expect(error.code == .nonMonotonicTime)
        #expect(error.path == "steps[2].t", "\(error)")
        let backwards = Trail(
            app: .init(bundleID: "a", version: "1", build: "1"), session: .init(id: "s", started: "x", pid: 1),
            steps: [Step(t: 10, .pop), Step(t: 3, .pop)])
        let encoding = try #require(throws: TrailCodecError.self) { try TrailCodec().encodeBinary(backwards) }
        #expect(encoding.code == .invalidTrail)
        #expect(encoding.trailError?.path == "steps[1].t", "\(encoding)")
        #expect(encoding.message.contains("goes back from 10 to 3"), "\(encoding.message)")
    }

    @Test("Absurd tab indexes: a state's tab out of range is refused; a select step to any tab replays without crashing")
    func absurdTabs() throws {
        for tab in ["9223372036854775807", "-1", "3"] {
            let json = """
                {"version":1,"app":{"bundleID":"a","version":"1","build":"1"},"session":{"id":"s","started":"2026-11-02T14:45:05Z","pid":1},
                 "base":{"tab":\(tab),"stacks":[[{"home":{}}],[{"market":{}}],[{"me":{}}]],"modals":[]},"steps":[]}
                """
            let error = try #require(throws: TrailError.self) { try Trail(json: Array(json.utf8)) }
            #expect(error.path.hasPrefix("base"), "\(error)")
        }
        let manifest = try Manifest(
            yaml: """
                app: a
                tabs: [home, market, me]
                destinations: { home: {}, market: {}, me: {} }
                """)
        var engine = NavigationEngine(manifest: manifest, state: manifest.launchState)
        for tab in [Int64.max, Int64.min, -1, 3, 1 << 40] {
            _ = engine.apply(Step(t: 0, .select(tab: tab)))
            #expect(engine.state.tab == 0, "select \(tab) moved to tab \(String(describing: engine.state.tab))")
        }
    }
}
