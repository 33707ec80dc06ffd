public import CrashtrailReports

/// A debug file slice the store keeps (SPEC section 16): one architecture of a dSYM's DWARF file or of an image that kept
/// its symbol table, known by its UUID.
public struct DebugFile: Hashable, Sendable {
    /// The build's UUID, lower-case with dashes.
    public var uuid: String
    /// The architecture, such as `arm64`, `arm64e` or `x86_64`.
    public var arch: String
    /// The image's name, as its file is named (`PirateBay`, `PirateKit`).
    public var name: String
    /// `dwarf` (functions, files, lines, inlined frames) or `symbol-table` (functions only).
    public var kind: String
    /// Where its `__TEXT` segment sits in the file: a frame's offset into the image is looked up at this plus the offset.
    public var textVMAddr: UInt64
    /// The slice's size in bytes.
    public var size: Int64
    /// The slice's SHA-1, lower-case hex: how a chunked upload names it.
    public var sha1: String
    /// When it was added, RFC 3339.
    public var added: String
    /// The project it was added for, whose crashes it symbolicates (SPEC section 19); `.unassigned` for one added for
    /// no project (stored before projects were kept apart): it symbolicates every project's crashes of its UUID that the
    /// project has no debug file of its own for.
    public var project: ProjectScope

    /// Of the debug files of one UUID, the one that symbolicates a project's crashes.
    ///
    /// The project's own, else one kept for every project; DWARF before a symbol table (a project that uploaded only
    /// the shipped binary keeps the names, files and lines of a dSYM kept for every project). The store and the
    /// symbolizer both choose by it.
    /// - Parameters:
    ///   - own: the project's own debug file of the UUID, if any.
    ///   - every: the one kept for every project, if any.
    /// - Returns: the one chosen, or nil when there is none.
    public static func chosen(own: DebugFile?, every: DebugFile?) -> DebugFile? {
        if let own, let every, own.kind != "dwarf", every.kind == "dwarf" { return every }
        return own ?? every
    }

    public init(
        uuid: String, arch: String, name: String, kind: String, textVMAddr: UInt64, size: Int64, sha1: String, added: String,
        project: ProjectScope = .one(.first)
    ) {
        self.project = project
        self.uuid = uuid
        self.arch = arch
        self.name = name
        self.kind = kind
        self.textVMAddr = textVMAddr
        self.size = size
        self.sha1 = sha1
        self.added = added
    }
}

/// An image that stored reports' frames name and that no debug file describes yet (`crashtrail symbols list
/// --missing`).
public struct MissingDebugFile: Hashable, Sendable {
    /// The image's UUID.
    public var uuid: String
    /// Its name.
    public var name: String
    /// The app versions of the reports that name it, sorted.
    public var appVersions: [String]
    /// How many stored reports wait for it.
    public var reports: Int

    public init(uuid: String, name: String, appVersions: [String], reports: Int) {
        self.uuid = uuid
        self.name = name
        self.appVersions = appVersions
        self.reports = reports
    }
}

/// An image one report's frames name, as the index of `reportImage` keeps it.
package struct ReportImage: Hashable, Sendable {
    package var uuid: String
    package var name: String
    /// Whether any of the report's frames in it is the app's own code.
    package var inApp: Bool
    /// Whether the report was derived with this image's debug file.
    package var symbolicated: Bool

    package init(uuid: String, name: String, inApp: Bool, symbolicated: Bool) {
        self.uuid = uuid
        self.name = name
        self.inApp = inApp
        self.symbolicated = symbolicated
    }
}
