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

    /// Whether the image named `name`, loaded from `path`, belongs to the system or the toolchain.
    static func isSystem(name: String?, path: String?) -> Bool {
        if let path {
            if systemPathPrefixes.contains(where: path.hasPrefix) { return true }
            if systemPathParts.contains(where: path.contains) { return true }
        }
        guard let name else { return path == nil }
        return systemNames.contains(name) || name.hasPrefix("libswift") || name.hasPrefix("libsystem_")
    }

    /// The last path component.
    static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
