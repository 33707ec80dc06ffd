package import CrashtrailCore

/// What the binary form derives from a manifest, deterministically: the tables a trail's body starts with
/// (destination names, payload keys, payload shapes, parameterless destinations, conditions), the zlib preset
/// dictionary, and the 32-bit id the header names it by.
///
/// The id is the CRC-32 of the manifest's canonical content (``canonicalContent``), so two manifests that route
/// alike share a dictionary, and any change that could change how a trail decodes gives a new id.
package struct ManifestDictionary: Sendable {
    /// The manifest the dictionary comes from.
    package let manifest: Manifest
    /// The id the binary header names: CRC-32 of ``canonicalContent``.
    package let id: UInt32
    /// The canonical JSON of everything in the manifest that decoding depends on.
    package let canonicalContent: [UInt8]
    /// The zlib preset dictionary.
    let presetDictionary: [UInt8]
    /// Seeds of the body's tables.
    let names: [String]
    let keys: [String]
    let shapes: [[String]]
    /// For each templated destination name (UTF-8), the index in `shapes` of its template's payload keys.
    let expectedShapes: [[UInt8]: Int]
    /// For each of `names`, the index of the first name with the same UTF-8 bytes: the decoder's id of a name.
    let nameIDs: [Int]
    /// The id of each name by its UTF-8 bytes, for names a body spells out.
    let nameIDsByBytes: [[UInt8]: Int]
    /// `expectedShapes` by name id (indexed like `names`), -1 where a name expects none.
    let expectedShapesByNameID: [Int]
    let destinations: [Destination]
    let conditions: [String]

    /// Derives the dictionary of `manifest`.
    /// - Parameter manifest: a manifest that loaded without errors.
    package init(manifest: Manifest) {
        self.manifest = manifest
        let content = Self.canonicalContent(of: manifest)
        canonicalContent = content
        id = RawDeflate.crc32(content)
        names = manifest.destinations.map(\.name)
        var keys: [String] = []
        var seenKeys: Set<[UInt8]> = []
        var shapes: [[String]] = [[]]
        var seenShapes: Set<[[UInt8]]> = [[]]
        var destinations: [Destination] = []
        var expectedShapes: [[UInt8]: Int] = [:]
        for spec in manifest.destinations {
            let placeholders = spec.route?.placeholders ?? []
            if placeholders.isEmpty {
                destinations.append(Destination(spec.name))
                continue
            }
            for placeholder in placeholders {
                for key in placeholder.path where seenKeys.insert(Array(key.utf8)).inserted {
                    keys.append(key)
                }
            }
            let shape = Set(placeholders.compactMap(\.path.first).map { Array($0.utf8) })
                .sorted { $0.lexicographicallyPrecedes($1) }
            if seenShapes.insert(shape).inserted {
                shapes.append(shape.map { String(decoding: $0, as: UTF8.self) })
            }
            let strings = shape.map { String(decoding: $0, as: UTF8.self) }
            expectedShapes[Array(spec.name.utf8)] = shapes.firstIndex(of: strings)
        }
        self.keys = keys
        self.shapes = shapes
        self.expectedShapes = expectedShapes
        var nameIDsByBytes: [[UInt8]: Int] = [:]
        var expectedShapesByNameID: [Int] = []
        for (index, name) in names.enumerated() {
            let bytes = Array(name.utf8)
            if nameIDsByBytes[bytes] == nil { nameIDsByBytes[bytes] = index }
            expectedShapesByNameID.append(expectedShapes[bytes] ?? -1)
        }
        nameIDs = names.map { nameIDsByBytes[Array($0.utf8)] ?? 0 }
        self.nameIDsByBytes = nameIDsByBytes
        self.expectedShapesByNameID = expectedShapesByNameID
        self.destinations = destinations
        conditions = manifest.conditions.map(\.name)
        presetDictionary = Self.presetDictionary(of: manifest)
    }

    /// The id as eight lower-case hex digits, as messages and `trail inspect` show it.
    package var idString: String { Self.hex(id) }

    static func hex(_ id: UInt32) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// The manifest's routing content as canonical JSON: app, tabs, root, modal transition, conditions and
    /// destinations in order, with every field of each.
    static func canonicalContent(of manifest: Manifest) -> [UInt8] {
        let conditions: [JSONValue] = manifest.conditions.map { .array([.string($0.name), .string($0.flow)]) }
        let destinations: [JSONValue] = manifest.destinations.map { spec in
            .array([
                .string(spec.name), spec.route.map { .string($0.text) } ?? .null, .string(spec.presentation.rawValue),
                .array(spec.requires.map { .string($0) }), .bool(spec.gate),
            ])
        }
        let content: JSONValue = .object([
            "format": "crashtrail-dictionary-1",
            "app": .string(manifest.app),
            "tabs": .array(manifest.tabs.map { .string($0) }),
            "root": manifest.root.map { .string($0) } ?? .null,
            "modal": .int(manifest.modalTransition),
            "conditions": .array(conditions),
            "destinations": .array(destinations),
        ])
        return CanonicalJSON.bytes(of: content)
    }

    /// The zlib preset dictionary: the manifest's canonical content.
    ///
    /// Its names and route texts are what a body may still hold as text (an `open` URL that is not the printed
    /// form, an unknown destination's name).
    /// Measured on the benchmark's trails it saves under 1%: the tables already took the names.
    static func presetDictionary(of manifest: Manifest) -> [UInt8] {
        canonicalContent(of: manifest)
    }
}
