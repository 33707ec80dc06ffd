import CrashtrailCore
import CrashtrailReports

extension ReportRecord {
    /// What the `details` column holds.
    struct Details {
        var crashedThread: Int?
        var mach: String?
        var language: ExceptionInfo.Language?
        var binaryImages: [BinaryImage] = []
    }

    /// The `details` column: canonical JSON with `crashedThread`, `mach`, `language` (`{"name", "reason"}`) and
    /// `binaryImages` (as in `show`'s JSON), each left out when the report has none.
    package static func encodeDetails(crashedThread: Int?, exception: ExceptionInfo, binaryImages: [BinaryImage]) -> String {
        var object: [String: JSONValue] = [:]
        if let crashedThread { object["crashedThread"] = .int(Int64(crashedThread)) }
        if let mach = exception.mach { object["mach"] = .string(mach) }
        if let language = exception.language {
            var value: [String: JSONValue] = ["name": .string(language.name)]
            if let reason = language.reason { value["reason"] = .string(reason) }
            object["language"] = .object(value)
        }
        if !binaryImages.isEmpty { object["binaryImages"] = .array(binaryImages.map(\.jsonValue)) }
        return CanonicalJSON.string(of: .object(object))
    }

    /// The `details` column read back; what it lacks (or a damaged value) reads as unknown.
    static func decodeDetails(_ text: String) -> Details {
        guard text != "{}", case .object(let object)? = try? JSONParser.parse(text) else { return Details() }
        var details = Details()
        details.crashedThread = object["crashedThread"]?.intValue.map { Int(clamping: $0) }
        details.mach = object["mach"]?.stringValue
        if let name = object["language"]?["name"]?.stringValue {
            details.language = ExceptionInfo.Language(name: name, reason: object["language"]?["reason"]?.stringValue)
        }
        details.binaryImages = (object["binaryImages"]?.arrayValue ?? []).compactMap { value in
            guard let name = value["name"]?.stringValue else { return nil }
            let address = value["loadAddress"]?.stringValue.flatMap { text in
                text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : nil
            }
            return BinaryImage(name: name, uuid: value["uuid"]?.stringValue, loadAddress: address)
        }
        return details
    }
}
