import CrashtrailCore
import Foundation

/// Where `replay` finds its trail: a trail file, a crash payload file, or a stored report.
struct ReplaySource {
    /// How the output names the report: the stored ID or the file given.
    let name: String
    let trail: Trail

    /// Why REPORT gave no trail.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Resolves REPORT.
    /// - Throws: `TrailError` for a trail file that is not a valid trail, `Failure` for anything else.
    static func resolve(_ report: String, manifests: [Manifest], store: String?) throws -> ReplaySource {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: report, isDirectory: &isDirectory) else {
            throw Failure(
                description:
                    "\(report) is not a trail file, and stored reports need the collector, which this build does not have yet; pass a trail JSON file")
        }
        guard !isDirectory.boolValue else {
            throw Failure(description: "\(report) is a folder; pass one trail file, crash payload file or report ID")
        }
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: report)))
        guard looksLikeTrailJSON(bytes) else {
            throw Failure(
                description:
                    "\(report) is not a trail JSON file; ct1: text, binary trails and crash payloads need the trail codec and the collector, which this build does not have yet")
        }
        do {
            return ReplaySource(name: report, trail: try Trail(json: bytes))
        } catch {
            throw Failure(description: "\(report): not a valid trail: \(error)")
        }
    }

    /// Whether the bytes are a JSON object with the fields of a trail (`version` and `steps`), not a crash
    /// payload that carries one.
    static func looksLikeTrailJSON(_ bytes: [UInt8]) -> Bool {
        guard let value = try? JSONParser.parse(bytes), let object = value.objectValue else {
            // Not JSON at all: let the trail parser say what is wrong when it starts like JSON.
            return bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
        }
        return object["steps"] != nil && object["version"] != nil && object["crashtrail"] == nil
    }
}
