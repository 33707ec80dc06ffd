import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailCollector

/// System images are told from the app's own by byte comparisons that must give what the plain `String`
/// searches give.
@Suite struct SystemImagesTests {
    /// The plain definitions the byte comparisons replace.
    private func referenceIsSystem(name: String?, path: String?) -> Bool {
        let prefixes = ["/System/", "/usr/lib/", "/usr/libexec/", "/Library/Apple/", "/Applications/Xcode", "/Developer/"]
        let parts = ["/RuntimeRoot/", ".simruntime/", "/Developer/Library/", "/Developer/usr/"]
        if let path {
            if prefixes.contains(where: path.hasPrefix) { return true }
            if parts.contains(where: path.contains) { return true }
        }
        guard let name else { return path == nil }
        return SystemImages.isSystem(name: name, path: nil)
    }

    private func referenceBaseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    @Test func agreesWithThePlainStringSearchesOnSeededPaths() {
        let pieces = [
            "/", "System", "Library", "Frameworks", "usr", "lib", "libexec", "Apple", "Applications", "Xcode", ".app",
            "Developer", "RuntimeRoot", ".simruntime", "Contents", "PirateBay", "é", "💥", "dyld", "", ".", "..", "Xcode-beta",
        ]
        var random = SplitMix64(seed: 11)
        for _ in 0..<20_000 {
            let count = Int(random.next() % 9)
            var path = ""
            for _ in 0..<count { path += pieces[Int(random.next() % UInt64(pieces.count))] }
            let name: String? = random.next() % 3 == 0 ? nil : ["dyld", "PirateBay", "libswiftCore.dylib", "Foo"][Int(random.next() % 4)]
            #expect(SystemImages.isSystem(name: name, path: path) == referenceIsSystem(name: name, path: path), "\(path)")
            #expect(SystemImages.baseName(path) == referenceBaseName(path), "\(path)")
        }
        for path in ["", "/", "//", "a", "a/", "/a//b//", "/System/Library/Frameworks/UIKit.framework/UIKit", "x/.simruntime/y"] {
            #expect(SystemImages.isSystem(name: nil, path: path) == referenceIsSystem(name: nil, path: path), "\(path)")
            #expect(SystemImages.baseName(path) == referenceBaseName(path), "\(path)")
        }
    }
}
