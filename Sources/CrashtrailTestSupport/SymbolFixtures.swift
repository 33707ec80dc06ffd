import Foundation

/// The Mach-O files and dSYMs in `Tests/Fixtures/symbols`, made by `Tools/make-symbol-fixtures.sh` from the sources in
/// `Tools/SymbolFixtures`, and what Sentry's `symbolic` and `llvm-symbolizer` named at every address of them
/// (`reference.json`, written by `Tools/symbolic-reference.py`).
public struct SymbolFixtures: Sendable {
    /// A frame as the reference gives it, innermost first.
    public struct Frame: Decodable, Hashable, Sendable {
        /// The linkage name.
        public var symbol: String
        /// The source file's full path; nil where only the symbol table names the address.
        public var fullPath: String?
        /// The line; 0 where none is known.
        public var line: Int
        /// Where the function starts, as an offset from the slice's `__TEXT` vmaddr, when the tool said.
        public var symbolAddress: UInt64?

        enum CodingKeys: String, CodingKey {
            case symbol
            case fullPath = "full_path"
            case line
            case symbolAddress = "sym_addr"
        }
    }

    /// The frames at one offset from the slice's `__TEXT` vmaddr.
    public struct Lookup: Decodable, Sendable {
        public var offset: UInt64
        /// Why the offset was chosen: `line` (a line-table row starts there), `end` (past a function's last row),
        /// `call` (a return address minus one).
        public var sources: [String]
        /// symbolic's frames; nil when symbolic could not read the slice.
        public var symbolic: [Frame]?
        public var llvmSymbolizer: [Frame]
    }

    /// One architecture of one file.
    public struct Slice: Decodable, Sendable {
        /// The file, relative to the fixtures' folder.
        public var file: String
        /// `dsym`, or `stripped` (a symbol table only).
        public var kind: String
        public var arch: String
        public var uuid: String
        public var textVMAddr: UInt64
        public var lookups: [Lookup]
        /// Why symbolic could not read it, if it could not.
        public var symbolicError: String?
    }

    /// The reference: the versions of the tools that made it and each slice's lookups.
    public struct Reference: Decodable, Sendable {
        public var symbolic: String
        public var llvmSymbolizer: String
        public var slices: [Slice]
    }

    /// The fixtures' folder.
    public let folder: URL

    /// The fixtures of this checkout.
    public static let shared = SymbolFixtures(folder: PackageRoot.url.appendingPathComponent("Tests/Fixtures/symbols"))

    /// The file `name` in the fixtures' folder.
    public func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// The reference symbolication.
    /// - Throws: when `reference.json` is missing or unreadable.
    public func reference() throws -> Reference {
        try JSONDecoder().decode(Reference.self, from: Data(contentsOf: url("reference.json")))
    }

    /// A lookup the reference does not have.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    /// A crash of the fixture: the image it is in (AppC and AppC5 are two builds of the same code), the frames'
    /// offsets (the crashing pc first, then return addresses) and the reference frames expected at each.
    public struct Crash: Sendable {
        public var id: String
        public var image: Slice
        public var offsets: [UInt64]
        public var expected: [[Frame]]
    }

    /// The offset of a lookup in `function`: the first line row, or the call `index` (from the end when negative).
    public static func lookup(in slice: Slice, function: String, source: String, index: Int = 0) throws -> Lookup {
        let found = slice.lookups.filter { $0.sources.contains(source) && $0.llvmSymbolizer.last?.symbol == function }
        guard !found.isEmpty else { throw Missing(description: "no \(source) lookup in \(function) of \(slice.file)") }
        return found[index >= 0 ? index : found.count + index]
    }

    /// A crash in `top`, called from `caller` (none when `top` was tail-called), from `kaboom_dispatch`'s handler call,
    /// from `kaboom_run_all`.
    public static func crash(id: String, in slice: Slice, top: String, caller: String?) throws -> Crash {
        let lookups =
            [
                try lookup(in: slice, function: top, source: "line")
            ] + (try caller.map { [try lookup(in: slice, function: $0, source: "call", index: -1)] } ?? []) + [
                try lookup(in: slice, function: "kaboom_dispatch", source: "call", index: 0),
                try lookup(in: slice, function: "kaboom_run_all", source: "call", index: -1),
            ]
        // A return address is one past the call's last byte: the lookup's offset is the return address minus one.
        let offsets = lookups.enumerated().map { $0.offset == 0 ? $0.element.offset : $0.element.offset + 1 }
        return Crash(id: id, image: slice, offsets: offsets, expected: lookups.map { $0.symbolic ?? $0.llvmSymbolizer })
    }

    /// The crash as an `.ips` file, its app frames named as the device names a stripped binary's: by its one
    /// exported symbol, at `exported`.
    public static func ips(_ crash: Crash, exported: UInt64) -> String {
        let base: UInt64 = 0x1_0480_0000
        let frames = crash.offsets.map { offset in
            offset >= exported
                ? #"{"imageIndex":0,"imageOffset":\#(offset),"symbol":"kaboom_exception_what","symbolLocation":\#(offset - exported)}"#
                : #"{"imageIndex":0,"imageOffset":\#(offset)}"#
        }
        let name = URL(fileURLWithPath: crash.image.file).lastPathComponent
        return """
            {"app_name":"Kaboom","timestamp":"2026-11-20 10:00:00.00 +0000","app_version":"1.0","build_version":"1","bug_type":"309","os_version":"iPhone OS 17.4 (21E219)","incident_id":"\(crash.id)","name":"Kaboom","bundleID":"com.example.kaboom"}
            {"incident":"\(crash.id)","captureTime":"2026-11-20 10:00:00.0000 +0000","procName":"Kaboom","pid":41,
             "bundleInfo":{"CFBundleIdentifier":"com.example.kaboom","CFBundleShortVersionString":"1.0","CFBundleVersion":"1"},
             "exception":{"type":"EXC_BAD_ACCESS","signal":"SIGSEGV","codes":"0x0000000000000001, 0x0000000000000000"},
             "faultingThread":0,
             "threads":[{"triggered":true,"frames":[\(frames.joined(separator: ","))]}],
             "usedImages":[{"source":"P","arch":"arm64","base":\(base),"size":65536,"uuid":"\(crash.image.uuid.lowercased())",
               "path":"/private/var/containers/Bundle/Application/Kaboom.app/Frameworks/\(name).framework/\(name)","name":"\(name)"}]}
            """
    }
}
