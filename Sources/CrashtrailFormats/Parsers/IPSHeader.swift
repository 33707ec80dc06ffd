// swift-format-ignore-file: AlwaysUseLowerCamelCase

// The header's properties are named as Apple names its JSON keys (snake_case), so the skimming decoder reads each key
// without a CodingKeys table.

/// The one-line JSON header of an Apple `.ips` file, read the same way for every body under it: a JSON report
/// (`bug_type` `"309"`, ``IPSParser``) or a legacy text report (`"109"`, ``AppleTextParser``).
///
/// It is read leniently, as the payloads are: a field of another type than expected is ignored, and the first of a
/// repeated key wins.
struct IPSHeader: Decodable {
    var bug_type: LooseScalar?
    var incident_id: String?
    var app_version: String?
    var build_version: String?
    var bundleID: String?
    var os_version: String?
    var timestamp: String?
    var name: String?

    private enum CodingKeys: String, CodingKey {
        case bug_type, incident_id, app_version, build_version, bundleID, os_version, timestamp, name
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bug_type = container.lenient(LooseScalar.self, .bug_type)
        incident_id = container.lenient(String.self, .incident_id)
        app_version = container.lenient(String.self, .app_version)
        build_version = container.lenient(String.self, .build_version)
        bundleID = container.lenient(String.self, .bundleID)
        os_version = container.lenient(String.self, .os_version)
        timestamp = container.lenient(String.self, .timestamp)
        name = container.lenient(String.self, .name)
    }

    /// Reads the header at the start of `bytes`.
    /// - Parameters:
    ///   - bytes: the whole `.ips` file.
    ///   - context: how the payload is parsed.
    /// - Returns: the header, and the index just past its closing brace, where the body starts.
    /// - Throws: `RejectionError` (`invalid-json`) when the header is not a complete JSON object.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, context: ParseContext) throws(RejectionError) -> (header: IPSHeader, end: Int) {
        guard let scan = TopLevelKeys.scan(bytes), let end = scan.end else {
            throw RejectionError(.invalidJSON, "the .ips header line is not a complete JSON object")
        }
        let header = try PayloadDecoder.decode(
            IPSHeader.self, from: UnsafeBufferPointer(rebasing: bytes[0..<end]), what: "the .ips header line", context: context.forPart)
        return (header, end)
    }
}
