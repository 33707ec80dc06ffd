import CrashtrailTestSupport
import Foundation
import Testing

/// docs/ADOPTING.md shows only code that compiles: each Swift snippet on the page (but the package manifest, which
/// `AppSideDependencyTests` resolves) is in the sources of `Samples/Adopting`, which the package builds and tests.
@Suite struct AdoptingDocTests {
    /// Lines without their indentation, blank lines dropped: a snippet may be shown less indented than in its file.
    static func normalized(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// The page's Swift snippets.
    static func snippets(of page: String) -> [String] {
        var snippets: [String] = []
        var current: [Substring]?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                snippets.append(current?.joined(separator: "\n") ?? "")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return snippets
    }

    @Test("Every Swift snippet of docs/ADOPTING.md is compiled code of Samples/Adopting")
    func snippetsAreCompiled() throws {
        // Given the page and the sample's sources
        let page = try String(contentsOf: PackageRoot.url.appendingPathComponent("docs/ADOPTING.md"), encoding: .utf8)
        let folder = PackageRoot.url.appendingPathComponent("Samples/Adopting")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var sources: [[String]] = []
        for case let url as URL in files where url.pathExtension == "swift" {
            sources.append(Self.normalized(try String(contentsOf: url, encoding: .utf8)))
        }
        let snippets = Self.snippets(of: page).filter { !$0.hasPrefix("// swift-tools-version") }
        #expect(snippets.count >= 5)

        // Then each snippet's lines appear, in a row, in one of them
        for snippet in snippets {
            let lines = Self.normalized(snippet)
            let found = sources.contains { source in
                source.indices.contains { start in
                    start + lines.count <= source.count && Array(source[start..<start + lines.count]) == lines
                }
            }
            #expect(found, "this snippet of docs/ADOPTING.md is in no file of Samples/Adopting:\n\(snippet)")
        }
    }
}
