import CrashtrailReports
import Testing

/// Globs as Sentry's rules match them (globset's syntax, through Relay for fingerprints and Ophio for stack traces).
@Suite("Grouping rule globs")
struct GlobTests {
    struct Case: Sendable, CustomStringConvertible {
        var pattern: String
        var path = false
        var caseInsensitive = false
        var value: String
        var matches: Bool
        var description: String { "\(pattern) \(path ? "(path) " : "")vs \(value)" }
    }

    static let cases: [Case] = [
        Case(pattern: "std::*", value: "std::terminate()", matches: true),
        Case(pattern: "std::*", value: "boost::x", matches: false),
        Case(pattern: "*", value: "a/b/c", matches: true),
        Case(pattern: "Connection*", value: "connectionError", matches: false),
        Case(pattern: "Connection*", caseInsensitive: true, value: "connectionError", matches: true),
        Case(pattern: "a?c", value: "abc", matches: true),
        Case(pattern: "a?c", value: "ac", matches: false),
        Case(pattern: "[abc]x", value: "bx", matches: true),
        Case(pattern: "[!abc]x", value: "bx", matches: false),
        Case(pattern: "[a-z]1", value: "q1", matches: true),
        Case(pattern: "{foo,bar}Error", value: "barError", matches: true),
        Case(pattern: "{foo,b{a,u}r}Error", value: "burError", matches: true),
        Case(pattern: "-\\[CRLCrash* crash\\]", value: "-[CRLCrashNULL crash]", matches: true),
        Case(pattern: "-[CRLCrashNULL crash]", value: "-[CRLCrashNULL crash]", matches: false),
        Case(pattern: "**/node_modules/**", path: true, value: "/src/node_modules/a/b.js", matches: true),
        Case(pattern: "**/node_modules/**", path: true, value: "src/node_modules/a.js", matches: true),
        Case(pattern: "**/generated/*.js", path: true, value: "src/generated/sub/x.js", matches: false),
        Case(pattern: "**/generated/**.js", path: true, value: "src/generated/x.js", matches: true),
        Case(pattern: "**/CrashLibiOS", path: true, value: "CrashLibiOS", matches: true),
        Case(
            pattern: "**/crashlibios", path: true, value: "/private/var/App.app/Frameworks/CrashLibiOS.framework/CrashLibiOS", matches: true
        ),
        Case(pattern: "src/*/x.swift", path: true, value: "src\\a\\x.swift", matches: true),
        Case(pattern: "src/*.swift", path: true, value: "src/a/x.swift", matches: false),
        Case(pattern: "a/**/b", path: true, value: "a/b", matches: true),
        Case(pattern: "a/**/b", path: true, value: "a/x/y/b", matches: true),
        Case(pattern: "**", value: "anything at all", matches: true),
        Case(pattern: "a[{]b", value: "a{b", matches: true),
        Case(pattern: "{[,;]x,y}", value: ";x", matches: true),
        Case(pattern: "{[,;]x,y}", value: "y", matches: true),
        Case(pattern: "**/**", value: "abc", matches: true),
    ]

    @Test("Each glob matches as globset does", arguments: cases)
    func matches(_ test: Case) throws {
        let glob = try #require(Glob(test.pattern, path: test.path, caseInsensitive: test.caseInsensitive))
        #expect(glob.matches(test.value) == test.matches)
    }

    @Test(
        "An unbalanced bracket or brace is no glob, nor one of more than 1,024 alternatives",
        arguments: ["[abc", "{a,b", "a}b", String(repeating: "{a,b}", count: 11)])
    func invalid(_ pattern: String) {
        #expect(Glob(pattern) == nil)
    }

    @Test("Many stars on a long value take linear time, not exponential")
    func manyStars() throws {
        let glob = try #require(Glob("*a*a*a*a*a*a*a*a*b"))
        #expect(!glob.matches(String(repeating: "a", count: 400)))
    }
}
