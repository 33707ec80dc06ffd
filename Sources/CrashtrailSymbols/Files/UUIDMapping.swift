import Foundation

/// A dSYM bundle's UUID map, `Contents/Resources/UUID.plist`: a property list that tells, for the binary of that UUID,
/// where Xcode built it and (for a bitcode build) the UUID it had before the App Store compiled it again.
///
/// `sentry-cli debug-files upload` sends them beside the DWARF files, as Sentry stores them (file format `uuidmap`).
/// crashtrail needs none: a crash names each image by the UUID of the binary that ran, which is its dSYM's. An
/// upload of one is checked and acknowledged as Sentry acknowledges it, and nothing of it is kept.
///
/// ```swift
/// UUIDMapping(name: "4C4C44C2-5555-3144-A122-28AFF5799215.plist", bytes: plist)?.uuid  // "4c4c44c2-…"
/// ```
package struct UUIDMapping: Sendable, Hashable {
    /// The UUID its name gives, in lower case.
    package var uuid: String

    /// Whether `name` is named as a UUID map is: a UUID, then `.plist`.
    package static func isNamed(_ name: String) -> Bool {
        uuid(ofName: name) != nil
    }

    /// The UUID map `bytes` are, named `name`.
    /// - Throws: ``UUIDMappingError`` when the name is a UUID map's but the bytes are no property list of one.
    /// - Returns: nil when `name` is no UUID map's name.
    package init?(name: String, bytes: [UInt8]) throws(UUIDMappingError) {
        guard let uuid = Self.uuid(ofName: name) else { return nil }
        let list: Any
        do {
            list = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw UUIDMappingError("\(name) is named as a dSYM's UUID map but is no property list: \(error.localizedDescription)")
        }
        guard let dictionary = list as? [String: Any], dictionary.keys.contains(where: { $0.hasPrefix("DBG") }) else {
            throw UUIDMappingError(
                "\(name) is named as a dSYM's UUID map but holds no DBG keys (DBGOriginalUUID, DBGSymbolRichExecutable, …)")
        }
        self.uuid = uuid
    }

    private static func uuid(ofName name: String) -> String? {
        let file = (name as NSString).lastPathComponent
        guard file.lowercased().hasSuffix(".plist") else { return nil }
        let stem = String(file.dropLast(".plist".count))
        guard let uuid = UUID(uuidString: stem) else { return nil }
        return uuid.uuidString.lowercased()
    }
}

/// Why an upload named as a UUID map is none.
package struct UUIDMappingError: Error, Hashable, Sendable {
    /// What was wrong, naming the file.
    package var message: String

    init(_ message: String) {
        self.message = message
    }
}
