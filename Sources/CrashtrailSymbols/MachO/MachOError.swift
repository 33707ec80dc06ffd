import CrashtrailCore

/// Why a file is not a debug file crashtrail can use.
package struct MachOError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    package struct Code: ErrorCode {
        package let name: String
        package init(name: String) { self.name = name }

        /// The file is no Mach-O file (its first bytes are no Mach-O or universal header).
        package static let notMachO = Code(name: "not-mach-o")
        /// A header, load command or section points past the end of the file or of its slice.
        package static let damaged = Code(name: "damaged")
        /// A slice has no `LC_UUID`, so no crash can name it.
        package static let noUUID = Code(name: "no-uuid")
        /// A slice has neither DWARF nor a symbol table: it was stripped.
        package static let stripped = Code(name: "stripped")
    }

    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
