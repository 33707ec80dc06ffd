import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing
import Yams

@testable import CrashtrailFormats

/// Apple text crash reports nobody here wrote, read by crashtrail and compared field by field with another tool's
/// published reading of the same files: getsentry/apple-crash-report-parser's snapshots (Tests/Fixtures/differential).
///
/// Compared: the exception type, the crashed thread's index and frame count, each of its frames' image, symbol (as the
/// report writes it) and offset into its image (the other tool's instruction address less its image's load address),
/// and the UUID and load address of each image the frames name.
@Suite("Apple text reports against another tool's readings")
struct AppleTextDifferentialTests {
    static let folder = PackageRoot.url.appendingPathComponent("Tests/Fixtures/differential/apple-crash-report-parser")

    /// The other tool's reading: its YAML snapshot after the `insta` header.
    struct Reading {
        struct Frame: Equatable, CustomStringConvertible {
            var image: String?
            var symbol: String?
            var offset: Int64?
            var description: String { "\(image ?? "?") \(symbol ?? "-") +\(offset.map(String.init) ?? "?")" }
        }
        var exceptionType: String?
        var crashedThread: [Frame]?
        /// The crashed thread's `id`.
        var crashedThreadIndex: Int?
        /// Each image's UUID and load address, by name (the first of a name).
        var images: [String: (uuid: String?, address: UInt64?)] = [:]

        init(snapshot text: String) throws {
            let body = try #require(text.components(separatedBy: "\n---\n").last)
            let document = try #require(try Yams.load(yaml: body) as? [String: Any])
            exceptionType = (document["metadata"] as? [String: Any])?["Exception Type"] as? String
            var bases: [String: UInt64] = [:]
            for image in document["binary_images"] as? [[String: Any]] ?? [] {
                if let name = image["name"] as? String, let address = (image["addr"] as? String).flatMap(Self.hex), bases[name] == nil {
                    bases[name] = address
                }
                if let name = image["name"] as? String, images[name] == nil {
                    images[name] = ((image["uuid"] as? String)?.lowercased(), (image["addr"] as? String).flatMap(Self.hex))
                }
            }
            let threads = document["threads"] as? [[String: Any]] ?? []
            crashedThreadIndex = threads.first { $0["crashed"] as? Bool == true }?["id"] as? Int
            crashedThread = threads.first { $0["crashed"] as? Bool == true }.map { thread in
                (thread["frames"] as? [[String: Any]] ?? []).map { frame in
                    let image = frame["module"] as? String
                    let address = (frame["instruction_addr"] as? String).flatMap(Self.hex)
                    var offset: Int64?
                    if let address, let base = image.flatMap({ bases[$0] }), address >= base { offset = Int64(address - base) }
                    return Frame(image: image, symbol: frame["symbol"] as? String, offset: offset)
                }
            }
        }

        static func hex(_ text: String) -> UInt64? {
            text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : nil
        }
    }

    @Test(
        "Each file reads as the other tool reads it",
        arguments: ["XCDYouTubeKit-54", "bruno", "handcrafted"])
    func agrees(name: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("\(name).txt"), encoding: .utf8)
        let reading = try Reading(snapshot: String(contentsOf: Self.folder.appendingPathComponent("\(name).snap"), encoding: .utf8))
        let parsed = try AppleTextParser.parse(Array(text.utf8))
        #expect(parsed.exception.type == reading.exceptionType || parsed.exception.signal == reading.exceptionType)
        let theirs = try #require(reading.crashedThread, "the other tool finds a crashed thread")
        let ours = parsed.frames.map { Reading.Frame(image: $0.image, symbol: $0.rawSymbol ?? $0.symbol, offset: $0.offset) }
        #expect(ours.count == theirs.count, "\(name): \(ours.count) frames, the other tool \(theirs.count)")
        for (index, (mine, other)) in zip(ours, theirs).enumerated() {
            // A frame whose image is `???` has no image, as the other tool reads it.
            #expect(mine.image == other.image, "\(name) frame \(index): image \(mine) against \(other)")
            #expect(mine.symbol == other.symbol, "\(name) frame \(index): symbol \(mine) against \(other)")
            if other.offset != nil { #expect(mine.offset == other.offset, "\(name) frame \(index): offset \(mine) against \(other)") }
        }
        #expect(parsed.crashedThread == reading.crashedThreadIndex, "\(name): crashed thread")
        // The images the frames name: UUID and load address as the other tool reads them.
        let named = Set(parsed.frames.compactMap(\.image))
        let images = parsed.binaryImages.filter { named.contains($0.name) }
        #expect(!images.isEmpty, "\(name): the frames' images are read")
        for image in images {
            guard let other = reading.images[image.name] else {
                // Not under Binary Images: known only by the load address its frame lines give (`0x7fff61bc6000 + 9662`).
                #expect(image.uuid == nil, "\(name) \(image.name)")
                continue
            }
            #expect(image.uuid == other.uuid, "\(name) \(image.name): UUID")
            #expect(image.loadAddress == other.address, "\(name) \(image.name): load address")
        }
    }

    @Test("A report with no Exception Type is refused, where the other tool reads its threads")
    func noExceptionType() throws {
        // Deliberately different: crashtrail stores crashes, and a report that names no exception and no crashed
        // thread (spaces.txt, whose reading has no crashed thread either) is not one; it is refused with the reason.
        let text = try String(contentsOf: Self.folder.appendingPathComponent("spaces.txt"), encoding: .utf8)
        let reading = try Reading(snapshot: String(contentsOf: Self.folder.appendingPathComponent("spaces.snap"), encoding: .utf8))
        #expect(reading.crashedThread == nil)
        #expect(throws: RejectionError.self) { try AppleTextParser.parse(Array(text.utf8)) }
    }
}
