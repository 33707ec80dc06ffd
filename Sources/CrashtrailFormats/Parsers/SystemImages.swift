/// Tells system and toolchain images from the app's own, for the signature's "app frames first".
enum SystemImages {
    private static let systemPathPrefixes = [
        "/System/", "/usr/lib/", "/usr/libexec/", "/Library/Apple/", "/Applications/Xcode", "/Developer/",
    ]
    private static let systemPathParts = ["/RuntimeRoot/", ".simruntime/", "/Developer/Library/", "/Developer/usr/"]
    private static let systemNames: Set<String> = [
        "dyld", "dyld_sim", "libobjc.A.dylib", "CoreFoundation", "Foundation", "UIKitCore", "UIKit", "SwiftUI",
        "GraphicsServices", "libdispatch.dylib", "libsystem_kernel.dylib", "libsystem_pthread.dylib",
        "libsystem_c.dylib", "libsystem_platform.dylib", "libc++abi.dylib", "libc++.1.dylib", "libswiftCore.dylib",
        "libdyld.dylib", "CoreGraphics", "QuartzCore", "FrontBoardServices", "BaseBoard", "XCTest", "XCTestCore",
        "libxpc.dylib", "CFNetwork", "Combine", "WebKit", "JavaScriptCore", "AVFoundation", "libsystem_malloc.dylib",
    ]

    private static let systemPathPrefixBytes = systemPathPrefixes.map { Array($0.utf8) }
    private static let systemPathPartBytes = systemPathParts.map { Array($0.utf8) }

    /// Whether the image named `name`, loaded from `path`, belongs to the system or the toolchain.
    ///
    /// Runs for every frame of every report, so paths are compared as UTF-8 bytes (the same answer as
    /// `hasPrefix` and `contains` give for these ASCII patterns, without `String`'s generic searching).
    static func isSystem(name: String?, path: String?) -> Bool {
        if var path, isSystemPath(&path) { return true }
        guard let name else { return path == nil }
        return systemNames.contains(name) || name.hasPrefix("libswift") || name.hasPrefix("libsystem_")
    }

    private static func isSystemPath(_ path: inout String) -> Bool {
        path.withUTF8 { bytes in
            for prefix in systemPathPrefixBytes where bytes.starts(with: prefix) { return true }
            // Every part starts with a byte that is rare in paths ('/' or '.'), so candidates are few.
            for part in systemPathPartBytes where part.count <= bytes.count {
                let first = part[0]
                var index = 0
                let last = bytes.count - part.count
                while index <= last {
                    if bytes[index] == first, bytes[index..<index + part.count].elementsEqual(part) { return true }
                    index += 1
                }
            }
            return false
        }
    }

    /// The last path component (the path itself when it has none, like `split` would say).
    static func baseName(_ path: String) -> String {
        let slash = UInt8(ascii: "/")
        var end = path.utf8.endIndex
        while end > path.utf8.startIndex, path.utf8[path.utf8.index(before: end)] == slash { end = path.utf8.index(before: end) }
        guard end > path.utf8.startIndex else { return path }
        let trimmed = path[..<end]
        guard let last = trimmed.utf8.lastIndex(of: slash) else { return String(trimmed) }
        return String(trimmed[trimmed.utf8.index(after: last)...])
    }
}
