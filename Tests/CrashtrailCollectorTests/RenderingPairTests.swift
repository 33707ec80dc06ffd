import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailReports

/// The same crash written two ways by the reporter that caught it.
///
/// KSCrash's JSON report and the Apple-format text its filter renders from it (Tests/Fixtures/differential/kscrash,
/// from KSCrash's own examples): each pair must read as one group, with the same top five frames.
@Suite("One crash, two renderings")
struct RenderingPairTests {
    static let folder = PackageRoot.url.appendingPathComponent("Tests/Fixtures/differential/kscrash")
    static let names = [
        "Abort", "BadPointer", "CorruptMemory", "CorruptObject", "CrashInHandler", "MainThreadDeadlock", "NSException",
        "StackOverflow", "Zombie", "ZombieNSException",
    ]

    static func read(_ name: String) throws -> (json: ParsedPayload, text: ParsedPayload) {
        let json = try Data(contentsOf: folder.appendingPathComponent("\(name).json"))
        let text = try Data(contentsOf: folder.appendingPathComponent("\(name).txt"))
        let parsedJSON = try Array(json).withUnsafeBufferPointer { try KSCrashParser.parse($0, context: ParseContext()) }
        return (parsedJSON, try AppleTextParser.parse(Array(text)))
    }

    @Test("The JSON report and its text rendering share a group and their top five frames", arguments: names)
    func sameGroup(name: String) throws {
        let (json, text) = try Self.read(name)
        func top(_ parsed: ParsedPayload) -> [String] {
            parsed.frames.prefix(5).map { "\($0.image ?? "?") \($0.symbol ?? "+\($0.offset ?? -1)")" }
        }
        #expect(!json.frames.isEmpty, "\(name): the JSON report's crashed thread has frames")
        #expect(top(text) == top(json), "\(name): top frames")
        #expect(
            CrashSignature.make(exception: text.exception, frames: text.frames)
                == CrashSignature.make(exception: json.exception, frames: json.frames), "\(name): signature")
    }
}
