import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailIntake
@testable import CrashtrailReports
@testable import CrashtrailStore

/// The crashed thread's index, the Mach and language exceptions and the binary images the frames name, read from real
/// reports nobody here wrote, each value checked against what the file itself says.
@Suite("Normalized report fields from real reports")
struct ReportFieldTests {
    static func record(_ url: URL) throws -> ReportRecord {
        let bytes = Array(try Data(contentsOf: url))
        let outcomes = bytes.withUnsafeBufferPointer {
            PayloadProcessor(decoder: TrailDecodingStub()).process($0, source: url.path).outcomes
        }
        guard case .record(let record)? = outcomes.first else { throw TestFailure("no record from \(url.lastPathComponent): \(outcomes)") }
        return record
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static let kscrash = PackageRoot.url.appendingPathComponent("Tests/Fixtures/differential/kscrash")

    @Test("KSCrash JSON of an NSException and its Apple-format text give the same fields")
    func kscrashNSException() throws {
        let json = try Self.record(Self.kscrash.appendingPathComponent("NSException.json")).report
        // The file: crash.error.mach.exception_name EXC_CRASH, crash.error.nsexception, thread 0 crashed.
        #expect(json.crashedThread == 0)
        #expect(json.exception.mach == "EXC_CRASH")
        #expect(
            json.exception.language
                == ExceptionInfo.Language(
                    name: "NSInvalidArgumentException",
                    reason: "-[__NSArrayI objectForKey:]: unrecognized selector sent to instance 0x1e59bc50"))
        // binary_images: CoreFoundation A8444F99-7111-304C-9571-B3FF974B769C at 0x314e0000.
        let coreFoundation = try #require(json.binaryImages.first { $0.name == "CoreFoundation" })
        #expect(
            coreFoundation == BinaryImage(name: "CoreFoundation", uuid: "a8444f99-7111-304c-9571-b3ff974b769c", loadAddress: 0x314e_0000))
        // Only the images the frames name, in the order they are first named.
        let named = (json.frames + json.exceptionBacktrace).compactMap(\.image)
        #expect(json.binaryImages.map(\.name) == named.reduce(into: []) { names, name in if !names.contains(name) { names.append(name) } })

        let text = try Self.record(Self.kscrash.appendingPathComponent("NSException.txt")).report
        #expect(text.crashedThread == json.crashedThread)
        #expect(text.exception.mach == json.exception.mach)
        #expect(text.exception.language == json.exception.language)
        #expect(text.signature == json.signature)
        for image in text.binaryImages {
            let other = json.binaryImages.first { $0.name == image.name }
            #expect(image.uuid == other?.uuid, "\(image.name)")
            #expect(image.loadAddress == other?.loadAddress, "\(image.name)")
        }
    }

    @Test("A Mach crash has no language exception", arguments: ["BadPointer", "StackOverflow"])
    func machCrash(name: String) throws {
        for file in ["\(name).json", "\(name).txt"] {
            let report = try Self.record(Self.kscrash.appendingPathComponent(file)).report
            #expect(report.exception.language == nil, "\(file)")
            #expect(report.exception.mach?.hasPrefix("EXC_") == true, "\(file)")
            #expect(report.crashedThread != nil, "\(file)")
        }
    }

    @Test("An .ips: faultingThread, exception.type and usedImages", .needsFixtures)
    func ips() throws {
        let url = try TestFiles.requiredFixtures().appendingPathComponent("ips/idb-xctest-sim-ios15-breakpoint.ips")
        let report = try Self.record(url).report
        #expect(report.crashedThread == 0)
        #expect(report.exception.mach == "EXC_BREAKPOINT")
        #expect(report.exception.language == nil)
        #expect(
            report.binaryImages.first
                == BinaryImage(name: "TpxUnitTests", uuid: "3cec66ab-9a13-32df-8d80-959d522d451e", loadAddress: 4_370_644_992))
        #expect(report.binaryImages.contains { $0.name == "CoreFoundation" && $0.uuid == "c913654a-e564-36de-a01e-7343a4defd27" })
    }

    @Test("A MetricKit diagnostic: the attributed stack, exceptionType by number and each frame's binary", .needsFixtures)
    func metricKit() throws {
        let url = try TestFiles.requiredFixtures().appendingPathComponent("metrickit/meter-real-ios14-2crashes.json")
        let report = try Self.record(url).report
        #expect(report.crashedThread == 0)
        #expect(report.exception.mach == "EXC_BREAKPOINT")
        #expect(
            report.binaryImages.first
                == BinaryImage(name: "libswiftCore.dylib", uuid: "9156be86-d4b6-3a81-8460-8728fa38c978", loadAddress: 6_859_616_256))
    }

    @Test("A Sentry event: the crashed thread's id, the Mach exception from the mechanism, the frames' debug images")
    func sentryEvent() throws {
        // As sentry-cocoa sends a Mach crash: the stack on the crashed thread, images in debug_meta by code_file.
        let event = #"""
            {"event_id":"7f3c2a10111122223333444455556666","platform":"cocoa",
             "exception":{"values":[{"type":"EXC_BAD_ACCESS","value":"KERN_INVALID_ADDRESS","thread_id":3,
               "mechanism":{"type":"mach","meta":{"mach_exception":{"name":"EXC_BAD_ACCESS","exception":1},"signal":{"name":"SIGSEGV"}}}}]},
             "threads":{"values":[{"id":0,"crashed":false},{"id":3,"crashed":true,"stacktrace":{"frames":[
               {"function":"main","package":"/private/var/containers/Bundle/Application/X/App.app/App","instruction_addr":"0x100004010","image_addr":"0x100000000","in_app":true},
               {"function":"objc_msgSend","package":"/usr/lib/libobjc.A.dylib","instruction_addr":"0x180001020","image_addr":"0x180000000","in_app":false}]}}]},
             "debug_meta":{"images":[
               {"type":"macho","code_file":"/usr/lib/libobjc.A.dylib","debug_id":"6B51E76F-DE9F-381B-B7B3-BC5BADBFEE3A","image_addr":"0x180000000"},
               {"type":"macho","code_file":"/usr/lib/libunused.dylib","debug_id":"11111111-2222-3333-4444-555555555555","image_addr":"0x190000000"},
               {"type":"macho","code_file":"/private/var/containers/Bundle/Application/X/App.app/App","debug_id":"99e112d2-0cb4-3f73-bda6-bcfc1f190724","image_addr":"0x100000000"}]}}
            """#
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("event.json")
        try Data(event.utf8).write(to: url)
        let report = try Self.record(url).report
        #expect(report.crashedThread == 3)
        #expect(report.exception.mach == "EXC_BAD_ACCESS")
        #expect(report.exception.language == nil)
        #expect(
            report.binaryImages == [
                BinaryImage(name: "libobjc.A.dylib", uuid: "6b51e76f-de9f-381b-b7b3-bc5badbfee3a", loadAddress: 0x1_8000_0000),
                BinaryImage(name: "App", uuid: "99e112d2-0cb4-3f73-bda6-bcfc1f190724", loadAddress: 0x1_0000_0000),
            ])
    }

    @Test("A Sentry event's frames find their image by address, whatever their package says")
    func sentryImagesByAddress() throws {
        // Two frames of a framework whose `package` is its name, not its path (the protocol allows a name, a path or
        // nothing), one frame with no package at all, and a system frame: each image is found by its address range.
        let event = #"""
            {"event_id":"8f3c2a10111122223333444455556666","platform":"cocoa",
             "exception":{"values":[{"type":"EXC_BAD_ACCESS","value":"KERN_INVALID_ADDRESS",
               "stacktrace":{"frames":[
               {"function":"start","instruction_addr":"0x100004010"},
               {"package":"Shop","instruction_addr":"0x104004034"},
               {"function":"objc_msgSend","package":"libobjc.A.dylib","instruction_addr":"0x180001020"},
               {"package":"Shop","instruction_addr":"0x104004020"}]}}]},
             "debug_meta":{"images":[
               {"type":"macho","code_file":"/usr/lib/libobjc.A.dylib","debug_id":"6B51E76F-DE9F-381B-B7B3-BC5BADBFEE3A","image_addr":"0x180000000","image_size":65536},
               {"type":"macho","code_file":"/var/containers/Bundle/Application/X/App.app/Frameworks/Shop.framework/Shop","debug_id":"77e112d2-0cb4-3f73-bda6-bcfc1f190724","image_addr":"0x104000000","image_size":32768},
               {"type":"macho","code_file":"/usr/lib/libunused.dylib","debug_id":"11111111-2222-3333-4444-555555555555","image_addr":"0x190000000","image_size":4096},
               {"type":"macho","code_file":"/var/containers/Bundle/Application/X/App.app/App","debug_id":"99e112d2-0cb4-3f73-bda6-bcfc1f190724","image_addr":"0x100000000","image_size":65536}]}}
            """#
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("event.json")
        try Data(event.utf8).write(to: url)
        let report = try Self.record(url).report
        #expect(report.frames.map(\.image) == ["Shop", "libobjc.A.dylib", "Shop", "App"])
        #expect(report.frames.map(\.offset) == [0x4020, 0x1020, 0x4034, 0x4010])
        #expect(report.frames.map(\.inApp) == [true, false, true, true])
        #expect(
            Set(report.binaryImages) == [
                BinaryImage(name: "libobjc.A.dylib", uuid: "6b51e76f-de9f-381b-b7b3-bc5badbfee3a", loadAddress: 0x1_8000_0000),
                BinaryImage(name: "Shop", uuid: "77e112d2-0cb4-3f73-bda6-bcfc1f190724", loadAddress: 0x1_0400_0000),
                BinaryImage(name: "App", uuid: "99e112d2-0cb4-3f73-bda6-bcfc1f190724", loadAddress: 0x1_0000_0000),
            ])
    }

    @Test("A Sentry image's size may be written as a string; a frame in no image's range keeps its package")
    func sentryImageSizeAsString() throws {
        let event = #"""
            {"event_id":"9f3c2a10111122223333444455556666","platform":"cocoa",
             "exception":{"values":[{"type":"EXC_BAD_ACCESS","stacktrace":{"frames":[
               {"package":"/usr/lib/libfar.dylib","instruction_addr":"0x1a0000010"},
               {"instruction_addr":"0x104000020"}]}}]},
             "debug_meta":{"images":[
               {"type":"macho","code_file":"/var/containers/Bundle/Application/X/App.app/App","debug_id":"99e112d2-0cb4-3f73-bda6-bcfc1f190724","image_addr":"0x104000000","image_size":"4096"}]}}
            """#
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("event.json")
        try Data(event.utf8).write(to: url)
        let report = try Self.record(url).report
        #expect(report.frames.map(\.image) == ["App", "libfar.dylib"])
        #expect(report.frames.map(\.offset) == [0x20, nil])
        #expect(report.binaryImages.map(\.name) == ["App"])
    }

    @Test("show's JSON carries the fields; a report without them says null and []")
    func showJSON() throws {
        let report = try Self.record(Self.kscrash.appendingPathComponent("NSException.json")).report
        let json = report.jsonValue
        #expect(json["crashedThread"] == .int(0))
        #expect(json["exception"]?["mach"] == .string("EXC_CRASH"))
        #expect(json["exception"]?["language"]?["name"] == .string("NSInvalidArgumentException"))
        #expect(json["binaryImages"]?.arrayValue?.first?["uuid"]?.stringValue?.count == 36)
        #expect(json["binaryImages"]?.arrayValue?.first?["loadAddress"]?.stringValue?.hasPrefix("0x") == true)
        var bare = report
        bare.crashedThread = nil
        bare.binaryImages = []
        bare.exception.mach = nil
        bare.exception.language = nil
        #expect(bare.jsonValue["crashedThread"] == .null)
        #expect(bare.jsonValue["binaryImages"] == .array([]))
        #expect(bare.jsonValue["exception"]?["language"] == .null)
    }

    @Test(
        "UUIDs are read the ways reports write them",
        arguments: [
            ("<99e112d20cb43f73bda6bcfc1f190724>", "99e112d2-0cb4-3f73-bda6-bcfc1f190724"),
            ("99E112D2-0CB4-3F73-BDA6-BCFC1F190724", "99e112d2-0cb4-3f73-bda6-bcfc1f190724"),
            ("00000000-0000-0000-0000-000000000000", nil), ("not a uuid", nil),
        ])
    func uuids(text: String, expected: String?) {
        #expect(BinaryImage.normalizedUUID(text) == expected)
    }
}
