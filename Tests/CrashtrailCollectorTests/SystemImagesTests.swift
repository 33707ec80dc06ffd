import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailStore

/// System images are told from the app's own: checked on real image names and paths from crash reports, and the
/// byte-wise path search guarded against the plain `String` searches it replaced.
@Suite struct SystemImagesTests {
    /// Images as real crash reports name them, and whether they are the system's (or the toolchain's).
    static let realImages: [(name: String?, path: String?, isSystem: Bool)] = [
        ("UIKitCore", "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore", true),
        ("libsystem_kernel.dylib", "/usr/lib/system/libsystem_kernel.dylib", true),
        ("dyld", "/usr/lib/dyld", true),
        ("libswiftCore.dylib", nil, true),
        ("libsystem_pthread.dylib", nil, true),
        ("CoreFoundation", nil, true),
        ("UIKitCore", nil, true),
        ("libobjc.A.dylib", nil, true),
        (
            "XCTestCore",
            "/Applications/Xcode.app/Contents/Developer/Platforms/iPhoneSimulator.platform/Developer/Library/PrivateFrameworks/XCTestCore.framework/XCTestCore",
            true
        ),
        (
            "UIKitCore",
            "/Library/Developer/CoreSimulator/Volumes/iOS_21A328/Library/Developer/CoreSimulator/Profiles/Runtimes/iOS 17.0.simruntime/Contents/Resources/RuntimeRoot/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore",
            true
        ),
        ("PirateBay", "/private/var/containers/Bundle/Application/1D2E3F40-5A6B-4C7D-8E9F-0A1B2C3D4E5F/PirateBay.app/PirateBay", false),
        ("PirateBay", nil, false),
        (
            "PirateKit",
            "/private/var/containers/Bundle/Application/1D2E3F40-5A6B-4C7D-8E9F-0A1B2C3D4E5F/PirateBay.app/Frameworks/PirateKit.framework/PirateKit",
            false
        ),
        (
            "Transit",
            "/Users/dev/Library/Developer/CoreSimulator/Devices/0F1E2D3C/data/Containers/Bundle/Application/9A8B/Transit.app/Transit", false
        ),
        (nil, nil, true),
        (nil, "/var/containers/Bundle/Application/X/App.app/App", false),
    ]

    @Test("Real images from crash reports are told apart", arguments: 0..<realImages.count)
    func realImage(index: Int) {
        let image = Self.realImages[index]
        #expect(SystemImages.isSystem(name: image.name, path: image.path) == image.isSystem, "\(image)")
    }

    /// The plain `String` searches the byte comparisons of the path rule replaced (a refactor guard: the patterns are
    /// the production ones, so this checks the byte search, not the choice of patterns).
    private func plainPathSearch(_ path: String) -> Bool {
        let prefixes = ["/System/", "/usr/lib/", "/usr/libexec/", "/Library/Apple/", "/Applications/Xcode", "/Developer/"]
        let parts = ["/RuntimeRoot/", ".simruntime/", "/Developer/Library/", "/Developer/usr/"]
        return prefixes.contains(where: path.hasPrefix) || parts.contains(where: path.contains)
    }

    private func referenceBaseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    @Test("Refactor guard: the byte-wise path search gives what the plain String searches give on 20,000 seeded paths")
    func byteSearchAgreesWithPlainSearchOnSeededPaths() {
        let pieces = [
            "/", "System", "Library", "Frameworks", "usr", "lib", "libexec", "Apple", "Applications", "Xcode", ".app",
            "Developer", "RuntimeRoot", ".simruntime", "Contents", "PirateBay", "é", "💥", "dyld", "", ".", "..", "Xcode-beta",
        ]
        var random = SplitMix64(seed: 11)
        for _ in 0..<20_000 {
            let count = Int(random.next() % 9)
            var path = ""
            for _ in 0..<count { path += pieces[Int(random.next() % UInt64(pieces.count))] }
            #expect(SystemImages.isSystem(name: nil, path: path) == plainPathSearch(path), "\(path)")
            #expect(SystemImages.baseName(path) == referenceBaseName(path), "\(path)")
        }
        for path in ["", "/", "//", "a", "a/", "/a//b//", "/System/Library/Frameworks/UIKit.framework/UIKit", "x/.simruntime/y"] {
            #expect(SystemImages.isSystem(name: nil, path: path) == plainPathSearch(path), "\(path)")
            #expect(SystemImages.baseName(path) == referenceBaseName(path), "\(path)")
        }
    }
}
