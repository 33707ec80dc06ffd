import CrashtrailReports
import CrashtrailTestSupport
import Testing

/// A seeded fuzz of the grouping rules' parser and globs.
///
/// Rules in Sentry's two grammars, mutated a thousand ways, are read or refused with a line and a column, and those
/// read are applied to a crash; globs built to be slow (many stars, long patterns against long names) finish in time
/// proportional to their size. A trap here ends the test process, which fails the run; the time limit fails a hang.
@Suite("Grouping rules fuzz")
struct GroupingRulesFuzzTests {
    /// Rules as Sentry's documentation writes them, one of each construct.
    static let seeds = [
        #"error.type:DatabaseUnavailable -> system-down"#,
        #"stack.function:"*Controller*" !app:no -> {{ function }}, controller"#,
        #"family:native stack.function:objc_msgSend -> objc{{ default }}"#,
        #"message:"*timed out*" -> timeout title="Timeouts: {{ transaction }}""#,
        #"tags.server_name:"canary-*" -> canary"#,
        #"stack.function:std::* -app"#,
        #"family:native stack.package:/usr/lib/** -app"#,
        #"[ stack.function:"*Retain*" ] | stack.function:objc_release +group"#,
        #"stack.function:panic_handler ^-group -group"#,
        #"path:**/Pods/** -app category=thirdparty"#,
        #"function:abort v-group max-frames=3 invert-stacktrace=1"#,
        #"stack.function:a | [ function:b ] -group"#,
        #"# a comment"# + "\n\n" + #"value:"say \"hi\"" -> {x,y}[a-z]?"#,
    ]

    static let tokens = [
        " ", "->", "|", "[", "]", "{", "}", "{{", "}}", "\"", "\\", "*", "**", "?", "!", ":", "=", ",", "^", "v", "+", "-",
        "\t", "\n", "#", "app", "group", "function:", "tags.", "max-frames=", "title=", "{a,b}", "[!x]", "\u{0}", "é",
    ]

    static func mutate(_ input: String, using generator: inout SplitMix64) -> String {
        var characters = Array(input)
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let at = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &generator)
            let length = min(characters.count - at, Int.random(in: 1...12, using: &generator))
            switch Int.random(in: 0..<4, using: &generator) {
            case 0 where !characters.isEmpty: characters.removeSubrange(at..<(at + length))
            case 1: characters.insert(contentsOf: characters[at..<(at + length)], at: at)
            case 2: characters.insert(contentsOf: Array(tokens[Int.random(in: 0..<tokens.count, using: &generator)]), at: at)
            default:
                characters.insert(contentsOf: Array("\n" + seeds[Int.random(in: 0..<seeds.count, using: &generator)]), at: at)
            }
        }
        return String(characters)
    }

    static let exception = ExceptionInfo(
        type: "NSInvalidArgumentException", signal: "SIGABRT",
        language: .init(name: "NSInvalidArgumentException", reason: "unrecognized selector sent to instance 0x1"))
    static let frames = [
        StackFrame(image: "libobjc.A.dylib", symbol: "objc_msgSend", offset: 1, inApp: false),
        StackFrame(image: "PirateBay", symbol: "ProfileController.viewDidLoad()", offset: 2, inApp: true, file: "/src/Pods/X/y.swift"),
        StackFrame(image: "UIKitCore", symbol: "-[UIViewController loadView]", offset: 3, inApp: false),
    ]

    @Test("Mutated rules are read and applied, or refused with a line and a column", .timeLimit(.minutes(2)))
    func mutations() {
        var generator = SplitMix64(seed: 2026)
        var read = 0
        var refused = 0
        for round in 0..<1_000 {
            let text = Self.mutate(Self.seeds[round % Self.seeds.count], using: &generator)
            do {
                let rules = try GroupingRules(parsing: text, file: "rules.txt")
                _ = rules.signature(exception: Self.exception, frames: Self.frames, release: "com.example@1.0+1")
                read += 1
            } catch {
                refused += 1
                #expect(error.line >= 1 && error.column >= 1, "\(text)")
                #expect(error.description.hasPrefix("rules.txt:\(error.line):"), "\(error)")
            }
        }
        // Most mutations break a rule; some leave one Sentry reads.
        #expect(read > 50 && refused > 100, "read \(read), refused \(refused)")
    }

    @Test("Globs made to be slow finish in time their size bounds, and still match as they should", .timeLimit(.minutes(1)))
    func slowGlobs() throws {
        let name = String(repeating: "a", count: 20_000)
        // Backtracking takes exponential time here, a memo of failures the stars times the name squared.
        let stars = try #require(Glob(String(repeating: "*a", count: 200) + "b"))
        #expect(!stars.matches(name))
        #expect(try #require(Glob(String(repeating: "*a", count: 200))).matches(name))
        // A recursion per byte of the pattern would be 20,000 frames deep.
        let long = try #require(Glob(name + "*", path: true))
        #expect(long.matches(name + "/x") == false && long.matches(name + "x"))
        let folders = try #require(Glob(String(repeating: "**/a/", count: 100) + "b", path: true))
        #expect(!folders.matches(String(repeating: "a/", count: 5_000) + "c"))
        #expect(folders.matches(String(repeating: "a/", count: 100) + "b"))
        // A rule of a thousand such matchers is read and applied.
        let rule = (0..<1_000).map { _ in #"function:"*a*a*a*a*a*a*a*a*b""# }.joined(separator: " ") + " -app"
        let rules = try GroupingRules(parsing: rule)
        let frames = [StackFrame(image: "App", symbol: String(repeating: "a", count: 2_000), offset: 1, inApp: true)]
        _ = rules.signature(exception: Self.exception, frames: frames, release: nil)
    }
}
