import CrashtrailCore
import Foundation

/// Finds the `llvm-symbolizer` crashtrail symbolicates with.
///
/// In order: `$CRASHTRAIL_LLVM_SYMBOLIZER`; `llvm-symbolizer` on the `PATH` (the Swift toolchain's, or Debian's `llvm`);
/// a versioned one (`llvm-symbolizer-21` and down to 14); the toolchain's in `/opt/swift`, then Debian's `llvm-19` and
/// `llvm-14` folders; Xcode's through `xcrun`. A `$CRASHTRAIL_LLVM_SYMBOLIZER` that is not an executable finds none.
package enum SymbolizerLocator {
    /// The environment variable that names the executable.
    package static let environmentVariable = "CRASHTRAIL_LLVM_SYMBOLIZER"

    /// The executable's path, or nil when none is found.
    package static func locate(environment: [String: String] = ProcessEnvironment.current()) -> String? {
        let manager = FileManager.default
        if let given = environment[environmentVariable], !given.isEmpty {
            return manager.isExecutableFile(atPath: given) ? given : nil
        }
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        let names = ["llvm-symbolizer"] + (14...21).reversed().map { "llvm-symbolizer-\($0)" }
        for name in names {
            for folder in folders where manager.isExecutableFile(atPath: folder + "/" + name) { return folder + "/" + name }
        }
        for path in ["/opt/swift/usr/bin/llvm-symbolizer", "/usr/lib/llvm-19/bin/llvm-symbolizer", "/usr/lib/llvm-14/bin/llvm-symbolizer"]
        where manager.isExecutableFile(atPath: path) {
            return path
        }
        return xcrunSymbolizer()
    }

    /// Xcode's, on a Mac.
    private static func xcrunSymbolizer() -> String? {
        #if os(macOS)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xcrun")
        process.arguments = ["--find", "llvm-symbolizer"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        let path = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && !path.isEmpty ? path : nil
        #else
        return nil
        #endif
    }
}
