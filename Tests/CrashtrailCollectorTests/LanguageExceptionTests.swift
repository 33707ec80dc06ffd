import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailCollector
@testable import CrashtrailStore

/// An uncaught language exception is the crash, not the abort it caused: `.ips` (its `asi`), Apple text and KSCrash
/// JSON name it, and each reads as the same head.
@Suite("Uncaught exceptions named the same in every format")
struct LanguageExceptionTests {
    static let asiLine =
        "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[__NSArrayI objectForKey:]: unrecognized selector'"

    /// The sample `.ips` with its exception replaced and Application Specific Information added.
    static func ips(type: String, signal: String) throws -> ParsedPayload {
        let text = try String(contentsOf: PackageRoot.url.appendingPathComponent("Samples/reports/ips-joined-by-pid.ips"), encoding: .utf8)
        let original = #""exception":{"codes":"EXC_ARM_DA_ALIGN","signal":"SIGBUS","type":"EXC_BAD_ACCESS"}"#
        try #require(text.contains(original))
        // Edited as text: the body holds register values beyond 64 bits, which only the crash formats' reader takes.
        let asi = CanonicalJSON.string(
            of: .object(["libsystem_c.dylib": .array([.string("abort() called")]), "CoreFoundation": .array([.string(asiLine)])]))
        let edited = text.replacingOccurrences(
            of: original, with: #""exception":{"type":"\#(type)","signal":"\#(signal)"},"asi":\#(asi)"#)
        let bytes = Array(edited.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in try IPSParser.parse(buffer) }
    }

    @Test("An .ips that ends in an abort is named by its uncaught exception, as KSCrash's JSON of such a crash is")
    func ipsNamesTheException() throws {
        let parsed = try Self.ips(type: "EXC_CRASH", signal: "SIGABRT")
        #expect(parsed.exception.type == "NSInvalidArgumentException")
        #expect(parsed.exception.reason == "-[__NSArrayI objectForKey:]: unrecognized selector")
        let kscrash = try KSCrashParser.parse(
            Array(Data(contentsOf: PackageRoot.url.appendingPathComponent("Tests/Fixtures/differential/kscrash/NSException.json"))))
        let head = { (exception: ExceptionInfo) in CrashSignature.canonicalException(type: exception.type, signal: exception.signal) }
        #expect(head(parsed.exception) == head(kscrash.exception))
        #expect(head(parsed.exception) == "NSInvalidArgumentException/SIGABRT")
    }

    @Test("Under another crash, the exception line is context: the crash keeps its Mach exception")
    func otherCrashKeepsItsException() throws {
        let parsed = try Self.ips(type: "EXC_BAD_ACCESS", signal: "SIGSEGV")
        #expect(parsed.exception.type == "EXC_BAD_ACCESS")
    }
}
