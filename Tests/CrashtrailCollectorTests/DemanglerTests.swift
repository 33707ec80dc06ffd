import CrashtrailCore
import CrashtrailEncoding
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailIntake
@testable import CrashtrailReports
@testable import CrashtrailStore

/// Mangled Swift and C++ names are demangled by the runtimes' own demanglers, the name as written kept beside.
@Suite("Demangling")
struct DemanglerTests {
    @Test(
        "Swift and C++ names demangle; other names are left alone",
        arguments: [
            ("$s9iOS_Swift14ViewControllerC5crashyyF", "iOS_Swift.ViewController.crash() -> ()"),
            ("_$s9iOS_Swift14ViewControllerC5crashyyF", "iOS_Swift.ViewController.crash() -> ()"),
            ("_ZN10MyCPPClass16throwAnExceptionEv", "MyCPPClass::throwAnException()"),
            ("__ZN10MyCPPClass16throwAnExceptionEv", "MyCPPClass::throwAnException()"),
            ("_ZL12realizeClassP7class_t", "realizeClass(class_t*)"),
        ])
    func demangles(mangled: String, readable: String) {
        #expect(Demangler.demangle(mangled) == readable)
    }

    @Test(
        "Names that are not mangled, or do not demangle, give nil",
        arguments: ["-[UIView layoutSubviews]", "objc_msgSend", "_Z!invalid", "$sbroken!", "main", ""])
    func leavesOthers(symbol: String) {
        #expect(Demangler.demangle(symbol) == nil)
    }

    @Test("Stored frames, signatures and show hold the demangled name; the frame keeps the name as written")
    func storedFrames() throws {
        // KSCrash's own example of a corrupt object crashes in a C++ function of the Objective-C runtime
        let file = PackageRoot.url.appendingPathComponent("Tests/Fixtures/differential/kscrash/CorruptObject.json")
        let bytes = try Array(Data(contentsOf: file))
        let outcomes = bytes.withUnsafeBufferPointer {
            PayloadProcessor(decoder: TrailDecodingStub()).process($0, source: "CorruptObject.json").outcomes
        }
        guard case .record(let record)? = outcomes.first else {
            Issue.record("no record: \(outcomes)")
            return
        }
        let frames = record.report.frames
        let realize = try #require(frames.first { $0.rawSymbol == "_ZL12realizeClassP7class_t" })
        #expect(realize.symbol == "realizeClass(class_t*)")
        #expect(!frames.contains { $0.symbol?.hasPrefix("_Z") == true })
        #expect(!record.signature.contains("_ZL"))
        #expect(
            record.report.jsonValue["frames"]?.arrayValue?.contains { $0["rawSymbol"] == .string("_ZL12realizeClassP7class_t") } == true)
    }
}

/// A decoder that knows no manifest.
struct TrailDecodingStub: TrailDecoding {
    struct Refused: Error {}
    func decodeTrail(bytes: [UInt8]) throws -> DecodedTrail { throw Refused() }
    func decodeTrail(text: String) throws -> DecodedTrail { throw Refused() }
    func decodeTrail(keys: [String: String]) throws -> DecodedTrail { throw Refused() }
}
