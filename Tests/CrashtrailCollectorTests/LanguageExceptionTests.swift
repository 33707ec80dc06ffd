import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailIntake
@testable import CrashtrailReports
@testable import CrashtrailStore

/// An uncaught language exception is the crash, not the abort it caused: `.ips` (its `asi`), Apple text and KSCrash
/// JSON name it, and each reads as the same head.
@Suite("Uncaught exceptions named the same in every format")
struct LanguageExceptionTests {
    static let asiLine =
        "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[__NSArrayI objectForKey:]: unrecognized selector'"

    /// The sample `.ips` with its exception replaced and Application Specific Information added.
    static func ips(type: String, signal: String, backtrace: String = "") throws -> ParsedPayload {
        let text = try String(contentsOf: PackageRoot.url.appendingPathComponent("Samples/reports/ips-joined-by-pid.ips"), encoding: .utf8)
        let original = #""exception":{"codes":"EXC_ARM_DA_ALIGN","signal":"SIGBUS","type":"EXC_BAD_ACCESS"}"#
        try #require(text.contains(original))
        // Edited as text: the body holds register values beyond 64 bits, which only the crash formats' reader takes.
        let asi = CanonicalJSON.string(
            of: .object(["libsystem_c.dylib": .array([.string("abort() called")]), "CoreFoundation": .array([.string(asiLine)])]))
        let edited = text.replacingOccurrences(
            of: original, with: #""exception":{"type":"\#(type)","signal":"\#(signal)"},"asi":\#(asi)\#(backtrace)"#)
        let bytes = Array(edited.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in try IPSParser.parse(buffer, context: ParseContext()) }
    }

    @Test("An .ips that ends in an abort is named by its uncaught exception, as KSCrash's JSON of such a crash is")
    func ipsNamesTheException() throws {
        let parsed = try Self.ips(type: "EXC_CRASH", signal: "SIGABRT")
        // Apple's type stays (SPEC section 8); the language exception is its own field and heads the signature.
        #expect(parsed.exception.type == "EXC_CRASH")
        #expect(parsed.exception.language?.name == "NSInvalidArgumentException")
        #expect(parsed.exception.reason == "-[__NSArrayI objectForKey:]: unrecognized selector")
        let kscrashBytes = Array(
            try Data(contentsOf: PackageRoot.url.appendingPathComponent("Tests/Fixtures/differential/kscrash/NSException.json")))
        let kscrash = try kscrashBytes.withUnsafeBufferPointer { try KSCrashParser.parse($0, context: ParseContext()) }
        let head = { (exception: ExceptionInfo) in CrashSignature.canonicalException(type: exception.type, signal: exception.signal) }
        #expect(head(parsed.exception) == head(kscrash.exception))
        #expect(head(parsed.exception) == "EXC_CRASH/SIGABRT")
        #expect(kscrash.exception.language?.name == parsed.exception.language?.name)
        let signature = { (exception: ExceptionInfo) in CrashSignature.make(exception: exception, frames: []) }
        #expect(signature(parsed.exception).hasPrefix("NSInvalidArgumentException @"))
        #expect(signature(parsed.exception) == signature(kscrash.exception))
    }

    @Test("Under another crash, the exception line is context: the crash keeps its Mach exception")
    func otherCrashKeepsItsException() throws {
        let parsed = try Self.ips(type: "EXC_BAD_ACCESS", signal: "SIGSEGV")
        #expect(parsed.exception.type == "EXC_BAD_ACCESS")
    }

    /// The frames where the exception was thrown, as an `.ips` and its text rendering write them.
    static let ipsBacktrace = """
        ,"lastExceptionBacktrace":[{"imageOffset":4004,"symbol":"__exceptionPreprocess","imageIndex":1},\
        {"imageOffset":5120,"symbol":"-[Crasher throwException]","imageIndex":0},\
        {"imageOffset":6000,"symbol":"-[CommandEntry executeWithViewController:]","imageIndex":0}]
        """

    @Test("An uncaught exception is grouped by where it was thrown: the .ips's lastExceptionBacktrace, the text's block")
    func exceptionBacktrace() throws {
        let ips = try Self.ips(type: "EXC_CRASH", signal: "SIGABRT", backtrace: Self.ipsBacktrace)
        #expect(
            ips.exceptionFrames.map(\.symbol) == [
                "__exceptionPreprocess", "-[Crasher throwException]", "-[CommandEntry executeWithViewController:]",
            ])
        #expect(ips.exceptionFrames.map(\.image) == ["UIKitCore", "PirateBay", "PirateBay"])
        let text = """
            Incident Identifier: 7F3C2A10-1111-2222-3333-444455556666
            Process:             PirateBay [4242]
            Identifier:          com.example.piratebay
            Exception Type:      EXC_CRASH (SIGABRT)

            Application Specific Information:
            \(Self.asiLine)

            Last Exception Backtrace:
            0   UIKitCore                     0x0000000180000fa4 __exceptionPreprocess + 164
            1   PirateBay                     0x000000010e000000 -[Crasher throwException] + 60
            2   PirateBay                     0x000000010e000370 -[CommandEntry executeWithViewController:] + 20

            Thread 0 Crashed:
            0   libsystem_kernel.dylib        0x00000001d1a3a1e4 __pthread_kill + 8
            1   libsystem_c.dylib             0x000000019a1b62c8 abort + 164
            """
        let parsed = try AppleTextParser.parse(Array(text.utf8))
        #expect(parsed.exceptionFrames.map(\.symbol) == ips.exceptionFrames.map(\.symbol))
        #expect(parsed.frames.count == 2)
        // Stored, the signature names the thrown-at frames, and show lists them apart from the crashed thread's
        let outcomes = Array(text.utf8).withUnsafeBufferPointer {
            PayloadProcessor(decoder: TrailDecodingStub()).process($0, source: "report.crash").outcomes
        }
        guard case .record(let record)? = outcomes.first else {
            Issue.record("no record: \(outcomes)")
            return
        }
        #expect(record.signature == "NSInvalidArgumentException @ -[Crasher throwException] < -[CommandEntry executeWithViewController:]")
        #expect(record.report.exceptionBacktrace.count == 3)
        #expect(record.report.jsonValue["exceptionBacktrace"]?.arrayValue?.count == 3)
    }
}
