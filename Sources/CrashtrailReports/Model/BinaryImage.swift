/// A binary image one of a report's frames names: what finding the build's symbols needs.
///
/// A report keeps the images its crashed thread and exception backtrace name, not every image the process had loaded
/// (hundreds, mostly the system's).
public struct BinaryImage: Hashable, Sendable {
    /// The image's name as the frames give it (`PirateBay`, `libobjc.A.dylib`).
    public var name: String
    /// The image's UUID (its build ID), lower-case with dashes (`8-4-4-4-12`), when the payload gives one.
    public var uuid: String?
    /// Where the image was loaded in this process, when the payload says.
    public var loadAddress: UInt64?

    public init(name: String, uuid: String? = nil, loadAddress: UInt64? = nil) {
        self.name = name
        self.uuid = uuid.flatMap(Self.normalizedUUID)
        self.loadAddress = loadAddress
    }

    /// A UUID as lower-case hex with dashes, however the report wrote it; nil when it is not one.
    ///
    /// Reports write `<e1b2…>`, `E1B2C3D4-…` or 32 bare hex digits. The all-zero UUID, which names no build, is nil.
    public static func normalizedUUID(_ text: String) -> String? {
        let digits = text.lowercased().filter { $0 != "-" && $0 != "<" && $0 != ">" && $0 != " " }
        guard digits.count == 32, digits.allSatisfy(\.isHexDigit), digits.contains(where: { $0 != "0" }) else { return nil }
        var result = ""
        for (index, digit) in digits.enumerated() {
            if [8, 12, 16, 20].contains(index) { result.append("-") }
            result.append(digit)
        }
        return result
    }
}
