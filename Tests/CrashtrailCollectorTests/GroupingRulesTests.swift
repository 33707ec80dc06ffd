import CrashtrailReports
import Testing

/// Grouping rules in Sentry's syntax (SPEC section 21, docs/GROUPING.md): parsed as Sentry parses them, applied as
/// Sentry applies them.
@Suite("Grouping rules")
struct GroupingRulesTests {
    // MARK: Parsing

    /// The fingerprint rules of Sentry's documentation (sentry-docs, fingerprint-rules.mdx).
    static let sentryFingerprintDocs = """
        error.type:DatabaseUnavailable -> system-down
        error.type:ConnectionError -> system-down

        error.value:"connection error: *" -> connection-error, {{ transaction }}
        error.type:ConnectionError stack.function:"connect" stack.module:"bot" -> bot-error
        logger:my.package.* level:error -> error-logger, {{ logger }} title="Error from Logger {{ logger }}"
        family:native !stack.module:"myproject::*" -> not-from-my-project
        stack.abs_path:"**/my-utils/*.js" -> my-utils, {{ error.type }}
        """

    /// The stack-trace rules of Sentry's documentation (sentry-docs, stack-trace-rules.mdx, its example section).
    static let sentryStackTraceDocs = """
        # mark all functions in the std namespace to be outside the app
        family:native stack.function:std::*       -app
        stack.abs_path:**/node_modules/** -group
        stack.abs_path:**/app/utils/requestError.jsx -group
        stack.abs_path:**src/getsentry/src/getsentry/** +app

        family:native max-frames=3

        stack.function:fetchSavedSearches v-group
        stack.abs_path:**/app/views/**.jsx stack.function:fetchData ^-group

        family:native stack.function:SpawnThread v-app -app
        family:native stack.function:_NSRaiseError ^-group -app
        family:native stack.function:std::* -app
        family:native stack.function:core::* -app
        [ category:telemetry ] | app:yes -group
        category:system | [ app:yes ] -group
        """

    @Test("The fingerprint rules of Sentry's documentation parse as Sentry parses them")
    func sentryFingerprintDocumentation() throws {
        let rules = try GroupingRules(parsing: Self.sentryFingerprintDocs)
        #expect(rules.fingerprintRules.count == 7 && rules.stackTraceRules.isEmpty)
        #expect(rules.fingerprintRules[2].fingerprint == ["connection-error", "{{ transaction }}"])
        #expect(rules.fingerprintRules[2].matchers[0].argument == "connection error: *")
        #expect(rules.fingerprintRules[4].fingerprint == ["error-logger", "{{ logger }}"])
        #expect(rules.fingerprintRules[4].title == "Error from Logger {{ logger }}")
        #expect(rules.fingerprintRules[5].matchers.map(\.negated) == [false, true])
        #expect(rules.fingerprintRules.map(\.line) == [1, 2, 4, 5, 6, 7, 8])
    }

    @Test("The stack-trace rules of Sentry's documentation parse as Sentry parses them")
    func sentryStackTraceDocumentation() throws {
        let rules = try GroupingRules(parsing: Self.sentryStackTraceDocs)
        #expect(rules.stackTraceRules.count == 13 && rules.fingerprintRules.isEmpty)
        #expect(rules.stackTraceRules[4].actions == [.maxFrames(3)])
        #expect(rules.stackTraceRules[5].actions == [.group(false, .below)])
        #expect(rules.stackTraceRules[7].actions == [.app(false, .below), .app(false, .this)])
        #expect(rules.stackTraceRules[8].actions == [.group(false, .above), .app(false, .this)])
        #expect(rules.stackTraceRules[11].caller?.key == "category" && rules.stackTraceRules[11].matchers.map(\.key) == ["app"])
        #expect(rules.stackTraceRules[12].callee?.argument == "yes")
    }

    @Test("Sentry's parser test vector: variables normalized, quoted values whole, fingerprint values split as Sentry splits them")
    func sentryTestVector() throws {
        let rules = try GroupingRules(
            parsing: """
                type:DatabaseUnavailable                        -> DatabaseUnavailable
                function:assertion_failed module:foo            -> AssertionFailed, foo
                app:true                                        -> {{default}}, stuff
                app:true                                        -> "default stuff"
                !"path":**/foo/**                               -> everything
                logger:sentry.*                                 -> logger-{{ logger }} title="Message from {{ logger }}"
                type:a -> logger-{{ logger }}-{{level}}
                type:a -> b # c
                """)
        let fingerprints = rules.fingerprintRules.map(\.fingerprint)
        #expect(fingerprints[1] == ["AssertionFailed", "foo"])
        #expect(fingerprints[2] == ["{{ default }}", "stuff"])
        #expect(fingerprints[3] == ["default stuff"])
        #expect(rules.fingerprintRules[4].matchers[0].negated && rules.fingerprintRules[4].matchers[0].key == "path")
        #expect(fingerprints[5] == ["logger-", "{{ logger }}"])
        #expect(fingerprints[6] == ["logger-", "{{ logger }}", "-", "{{ level }}"])
        #expect(fingerprints[7] == ["b", "#", "c"])
    }

    @Test("Two stack-trace rules on one line, as Sentry reads them; a comment after the actions")
    func twoRulesOnALine() throws {
        let rules = try GroupingRules(parsing: "function:b -app module:d +app\nfunction:x -group # why")
        #expect(rules.stackTraceRules.map(\.actions) == [[.app(false, .this)], [.app(true, .this)], [.group(false, .this)]])
        #expect(rules.notes.map(\.column) == [17], "native frames have no module")
    }

    @Test("A file with Windows line ends reads as one with Unix line ends")
    func windowsLineEnds() throws {
        let rules = try GroupingRules(parsing: "# rules\r\ntype:a -> x\r\nfunction:b -app\r\n")
        #expect(rules.fingerprintRules.map(\.line) == [2] && rules.stackTraceRules.map(\.line) == [3])
    }

    @Test("A caller's or callee's matcher is checked as the frame's are")
    func neighbourMatchers() {
        #expect(throws: GroupingRulesError.self) { try GroupingRules(parsing: "[ functon:foo ] | function:bar +app") }
        #expect {
            try GroupingRules(parsing: "function:bar | [ error.type:X ] +app")
        } throws: { error in
            (error as? GroupingRulesError).map { $0.code == .syntax && $0.column == 18 } ?? false
        }
    }

    @Test("A rule's matches apply from the outermost frame to the crash, as Sentry's do: the one nearer the crash wins")
    func matchOrder() throws {
        func frame(_ symbol: String, _ inApp: Bool) -> StackFrame {
            StackFrame(image: inApp ? "App" : "UIKit", symbol: symbol, offset: 1, inApp: inApp)
        }
        let frames = [frame("a", true), frame("x", false), frame("b", true), frame("x", false), frame("c", true)]
        let rules = try GroupingRules(parsing: "function:x ^-app v+app")
        #expect(rules.signature(exception: Self.badAccess, frames: frames, release: nil) == Self.head + "b < x < c")
    }

    @Test("Quoted values unescape as Sentry's do")
    func escapes() throws {
        let rules = try GroupingRules(parsing: #"value:"say \"hi\"\tnow \[x\] \x41" -> x"#)
        #expect(rules.fingerprintRules[0].matchers[0].argument == "say \"hi\"\tnow \\[x\\] A")
    }

    struct Mistake: Sendable, CustomStringConvertible {
        var text: String
        var line: Int
        var column: Int
        var code: GroupingRulesError.Code
        var description: String { text }
    }

    static let mistakes: [Mistake] = [
        Mistake(text: "type:a\t-> b", line: 1, column: 7, code: .syntax),
        Mistake(text: "# ok\n\nfunction:x -apps", line: 3, column: 16, code: .syntax),
        Mistake(text: "foo:x -> y", line: 1, column: 1, code: .unknownMatcher),
        Mistake(text: "function:a -app\n  logger:x -app", line: 2, column: 3, code: .unknownMatcher),
        Mistake(text: "type:x -> a label=\"b\"", line: 1, column: 13, code: .unknownAttribute),
        Mistake(text: "function:x max-frames=many", line: 1, column: 23, code: .invalidValue),
        Mistake(text: "function:x ->", line: 1, column: 14, code: .syntax),
        Mistake(text: "function:x", line: 1, column: 11, code: .syntax),
        Mistake(text: "function:\"x -> y", line: 1, column: 10, code: .syntax),
        Mistake(text: "[function:a]|function:b -group", line: 1, column: 25, code: .syntax),
        Mistake(text: "type:a -> a,,b", line: 1, column: 13, code: .syntax),
        Mistake(text: "type:a -> x{y}", line: 1, column: 12, code: .syntax),
        Mistake(text: "-> x", line: 1, column: 1, code: .syntax),
        Mistake(text: "type: -> x", line: 1, column: 6, code: .syntax),
    ]

    @Test("A mistake is named by its line and column", arguments: mistakes)
    func mistake(_ mistake: Mistake) {
        #expect {
            try GroupingRules(parsing: mistake.text, file: "rules.txt")
        } throws: { error in
            guard let error = error as? GroupingRulesError else { return false }
            return error.line == mistake.line && error.column == mistake.column && error.code == mistake.code
                && error.description.hasPrefix("rules.txt:\(mistake.line):\(mistake.column): ")
        }
    }

    @Test("An unknown matcher's message lists every key its kind of rule takes, and each key it lists is taken")
    func unknownMatcherListsEveryKey() throws {
        for (rule, template) in [("foo:x -> y", "KEY:VALUE -> y"), ("foo:x -app", "KEY:VALUE -app")] {
            let error = #expect(throws: GroupingRulesError.self) { try GroupingRules(parsing: rule) }
            let list = try #require(error?.message.split(separator: " match ", maxSplits: 1).last)
            let keys = list.split(separator: ", ").map(String.init)
            #expect(keys.contains("thread.crashed") == rule.contains("->"), "\(keys)")
            #expect(keys.contains("stack.abs_path") && keys.contains("error.type"), "\(keys)")
            for key in keys {
                let name = key == "tags.NAME" ? "tags.build" : key
                let value = ["app": "yes", "family": "native", "thread.crashed": "yes"][name] ?? "x"
                let text = template.replacing("KEY", with: name).replacing("VALUE", with: value)
                #expect(throws: Never.self, "\(text)") { try GroupingRules(parsing: text) }
            }
        }
    }

    // MARK: Applying

    static let badAccess = ExceptionInfo(type: "EXC_BAD_ACCESS", signal: "SIGSEGV", reason: "Attempted to dereference null pointer.")
    static let nsException = ExceptionInfo(
        type: "NSInvalidArgumentException", signal: "SIGABRT",
        language: .init(name: "NSInvalidArgumentException", reason: "unrecognized selector"))

    /// Top first: the crash in a vendored SDK, called by the app, called by UIKit.
    static let frames = [
        StackFrame(image: "libobjc.A.dylib", symbol: "objc_msgSend", offset: 1, inApp: false),
        StackFrame(
            image: "VendorSDK", symbol: "-[VendorClient send]", offset: 2, inApp: true, file: "/src/vendor/VendorClient.m", line: 10),
        StackFrame(
            image: "VendorSDK", symbol: "-[VendorClient flush]", offset: 3, inApp: true, file: "/src/vendor/VendorClient.m", line: 20),
        StackFrame(
            image: "PirateBay", symbol: "CheckoutViewController.pay()", offset: 4, inApp: true, file: "/src/app/Checkout.swift", line: 30),
        StackFrame(
            image: "PirateBay", symbol: "CheckoutViewController.tap()", offset: 5, inApp: true, file: "/src/app/Checkout.swift", line: 40),
        StackFrame(image: "UIKitCore", symbol: "-[UIApplication sendAction:to:from:forEvent:]", offset: 6, inApp: false),
    ]

    static func signature(_ rules: String, exception: ExceptionInfo = badAccess, frames: [StackFrame] = frames) throws -> String {
        try GroupingRules(parsing: rules).signature(exception: exception, frames: frames, release: "com.pirate.bay@2.1+45")
    }

    static let head = "EXC_BAD_ACCESS/SIGSEGV @ "

    struct Application: Sendable, CustomStringConvertible {
        var rules: String
        var expected: String
        var description: String { rules }
    }

    static let applications: [Application] = [
        Application(rules: "", expected: head + "-[VendorClient send] < -[VendorClient flush] < CheckoutViewController.pay()"),
        Application(rules: "package:VendorSDK -app", expected: head + "CheckoutViewController.pay() < CheckoutViewController.tap()"),
        Application(rules: "package:**/vendorsdk -app", expected: head + "CheckoutViewController.pay() < CheckoutViewController.tap()"),
        Application(rules: "path:**/vendor/** -app", expected: head + "CheckoutViewController.pay() < CheckoutViewController.tap()"),
        Application(rules: "function:objc_msgSend +app", expected: head + "objc_msgSend < -[VendorClient send] < -[VendorClient flush]"),
        Application(rules: "function:objc_msgSend +group", expected: head + "objc_msgSend < -[VendorClient send] < -[VendorClient flush]"),
        Application(
            rules: "function:\"-\\[VendorClient *\\]\" -group",
            expected: head + "CheckoutViewController.pay() < CheckoutViewController.tap()"),
        Application(
            rules: "function:CheckoutViewController.pay() ^-group",
            expected: head + "CheckoutViewController.pay() < CheckoutViewController.tap()"),
        Application(rules: "function:-\\[VendorClient?send\\] v-group", expected: head + "-[VendorClient send]"),
        Application(rules: "function:-\\[VendorClient?send\\] v-app", expected: head + "-[VendorClient send]"),
        Application(rules: "family:native max-frames=1", expected: head + "-[VendorClient send]"),
        Application(rules: "family:native min-frames=5", expected: "EXC_BAD_ACCESS/SIGSEGV @ (no frames)"),
        Application(
            rules: "family:native min-frames=4",
            expected: head + "-[VendorClient send] < -[VendorClient flush] < CheckoutViewController.pay()"),
        Application(
            rules: "family:javascript -app", expected: head + "-[VendorClient send] < -[VendorClient flush] < CheckoutViewController.pay()"),
        Application(rules: "app:yes -app\napp:no +app", expected: head + "objc_msgSend < -[VendorClient send] < -[VendorClient flush]"),
        Application(
            rules: "package:VendorSDK category=vendor\ncategory:vendor -group",
            expected: head + "CheckoutViewController.pay() < CheckoutViewController.tap()"),
        Application(
            rules: "[ function:CheckoutViewController.tap() ] | function:* -group",
            expected: head + "-[VendorClient send] < -[VendorClient flush] < CheckoutViewController.tap()"),
        Application(
            rules: "function:* | [ function:objc_msgSend ] -group",
            expected: head + "-[VendorClient flush] < CheckoutViewController.pay() < CheckoutViewController.tap()"),
        Application(
            rules: "type:EXC_BAD_ACCESS package:VendorSDK -app",
            expected: head + "CheckoutViewController.pay() < CheckoutViewController.tap()"),
        Application(
            rules: "type:NSInvalid* package:VendorSDK -app",
            expected: head + "-[VendorClient send] < -[VendorClient flush] < CheckoutViewController.pay()"),
        Application(rules: "!package:VendorSDK -app", expected: head + "-[VendorClient send] < -[VendorClient flush]"),
        Application(rules: "error.type:EXC_BAD_ACCESS -> null-access", expected: "null-access"),
        Application(rules: "type:SIGSEGV -> by-signal", expected: "by-signal"),
        Application(
            rules: "value:\"attempted to DEREFERENCE*\" -> {{ default }}, null",
            expected: head + "-[VendorClient send] < -[VendorClient flush] < CheckoutViewController.pay() | null"),
        Application(rules: "message:*null* -> m", expected: "m"),
        Application(
            rules: "function:CheckoutViewController.pay() -> checkout, {{ function }}", expected: "checkout | -[VendorClient send]"),
        Application(
            rules: "function:CheckoutViewController.pay() app:no -> never",
            expected: head + "-[VendorClient send] < -[VendorClient flush] < CheckoutViewController.pay()"),
        Application(rules: "function:CheckoutViewController.* path:**/Checkout.swift -> checkout", expected: "checkout"),
        Application(rules: "!function:CheckoutViewController.pay() -> any-other-frame", expected: "any-other-frame"),
        Application(rules: "release:com.pirate.bay@2.* -> v2, {{ type }}", expected: "v2 | EXC_BAD_ACCESS"),
        Application(
            rules: "release:com.pirate.bay@3.* -> v3",
            expected: head + "-[VendorClient send] < -[VendorClient flush] < CheckoutViewController.pay()"),
        Application(
            rules: "level:FATAL family:native,javascript -> {{ level }}, {{ package }}, {{ transaction }}",
            expected: "fatal | VendorSDK | <no-transaction>"),
        Application(
            rules: "logger:* -> never", expected: head + "-[VendorClient send] < -[VendorClient flush] < CheckoutViewController.pay()"),
        Application(rules: "type:EXC_BAD_ACCESS -> first\ntype:EXC_BAD_ACCESS -> second", expected: "first"),
        Application(
            rules: "package:VendorSDK -app\nfunction:CheckoutViewController.pay() app:yes -> {{ default }}",
            expected: head + "CheckoutViewController.pay() < CheckoutViewController.tap()"),
        Application(rules: "[ function:CheckoutViewController.pay() ] | package:VendorSDK -> caller-matched", expected: "caller-matched"),
        Application(
            rules: "package:VendorSDK | [ function:nothing ] -> never",
            expected: head + "-[VendorClient send] < -[VendorClient flush] < CheckoutViewController.pay()"),
    ]

    @Test("Each matcher and action changes the signature as Sentry's grouping would", arguments: applications)
    func apply(_ application: Application) throws {
        #expect(try Self.signature(application.rules) == application.expected)
    }

    @Test("A language exception matches by its name, its reason by value")
    func languageException() throws {
        #expect(
            try Self.signature("type:NSInvalidArgumentException value:*selector -> selector", exception: Self.nsException) == "selector")
        #expect(try Self.signature("type:EXC_CRASH -> mach", exception: Self.nsException) != "mach")
    }

    @Test("A rule on frames matches nothing in a crash without frames")
    func noFrames() throws {
        #expect(try Self.signature("!function:x -> none", frames: []) == "EXC_BAD_ACCESS/SIGSEGV @ (no frames)")
        #expect(try Self.signature("type:EXC_BAD_ACCESS -> bad", frames: []) == "bad")
    }

    @Test("Merges apply after the rules, a project's before the store's")
    func merges() throws {
        let book = GroupingRuleBook(
            rules: [
                .all: try GroupingRules(parsing: "type:EXC_BAD_ACCESS -> bad"),
                3: try GroupingRules(parsing: "type:EXC_BAD_ACCESS -> three"),
            ],
            merges: [.all: ["bad": "merged"], 3: ["three": "merged-3"]])
        func signature(_ project: ProjectID) -> String {
            book.signature(project: project, exception: Self.badAccess, frames: Self.frames, release: nil) { nil }
        }
        #expect(signature(1) == "merged")
        #expect(signature(3) == "merged-3")
        #expect(signature(4) == "merged")
        #expect(GroupingRuleBook.release(bundleID: "b", version: "1", build: "2") == "b@1+2")
    }
}
