import CrashtrailReports
import CrashtrailStore
import Testing

@Suite("Crash signatures")
struct SignatureTests {
    static let badAccess = ExceptionInfo(type: "EXC_BAD_ACCESS", code: "KERN_INVALID_ADDRESS", signal: "SIGSEGV")

    static func frames(
        offsets: [Int64],
        symbols: [String?] = ["objc_msgSend", "ListingCell.configure(with:)", "MarketplaceViewController.load()", "UIApplicationMain"]
    ) -> [StackFrame] {
        let images = ["libobjc.A.dylib", "PirateBay", "PirateBay", "UIKitCore"]
        return zip(images, zip(symbols, offsets)).map { image, pair in
            StackFrame(image: image, symbol: pair.0, offset: pair.1, inApp: image == "PirateBay")
        }
    }

    struct Pair: Sendable, CustomStringConvertible {
        var name: String
        var lhs: (ExceptionInfo, [StackFrame])
        var rhs: (ExceptionInfo, [StackFrame])
        var description: String { name }
    }

    static let samePairs: [Pair] = [
        Pair(
            name: "another build moves every offset",
            lhs: (badAccess, frames(offsets: [20, 1412, 2204, 88])), rhs: (badAccess, frames(offsets: [20, 1980, 3120, 88]))),
        Pair(
            name: "another device reports another code and reason",
            lhs: (badAccess, frames(offsets: [20, 1412, 2204, 88])),
            rhs: (
                ExceptionInfo(type: "EXC_BAD_ACCESS", code: "0x0000000000000010", signal: "SIGSEGV", reason: "at 0x10"),
                frames(offsets: [24, 1412, 2204, 92])
            )),
        Pair(
            name: "symbols with addresses and + offsets",
            lhs: (
                badAccess,
                frames(
                    offsets: [1, 2, 3, 4],
                    symbols: [
                        "objc_msgSend + 32", "ListingCell.configure(with:) + 1412", "MarketplaceViewController.load() 0x1000f3a8",
                        "UIApplicationMain",
                    ])
            ),
            rhs: (badAccess, frames(offsets: [5, 6, 7, 8]))),
        Pair(
            name: "inlined frames repeat the symbol",
            lhs: (badAccess, frames(offsets: [20, 1412, 2204, 88])),
            rhs: (
                badAccess,
                [frames(offsets: [20, 1412, 2204, 88])[0], frames(offsets: [0, 1400, 0, 0])[1]]
                    + frames(offsets: [20, 1412, 2204, 88]).dropFirst()
            )),
    ]

    static let differentPairs: [Pair] = [
        Pair(
            name: "another exception type", lhs: (badAccess, frames(offsets: [1, 2, 3, 4])),
            rhs: (ExceptionInfo(type: "EXC_BREAKPOINT", signal: "SIGTRAP"), frames(offsets: [1, 2, 3, 4]))),
        Pair(
            name: "another app frame", lhs: (badAccess, frames(offsets: [1, 2, 3, 4])),
            rhs: (
                badAccess,
                frames(
                    offsets: [1, 2, 3, 4],
                    symbols: ["objc_msgSend", "SellerCell.configure(with:)", "MarketplaceViewController.load()", "UIApplicationMain"])
            )),
        Pair(
            name: "unsymbolicated frames at other offsets",
            lhs: (badAccess, frames(offsets: [1, 2, 3, 4], symbols: [nil, nil, nil, nil])),
            rhs: (badAccess, frames(offsets: [1, 9, 3, 4], symbols: [nil, nil, nil, nil]))),
    ]

    @Test("The same crash gets the same signature", arguments: samePairs)
    func same(_ pair: Pair) {
        #expect(
            CrashSignature.make(exception: pair.lhs.0, frames: pair.lhs.1) == CrashSignature.make(exception: pair.rhs.0, frames: pair.rhs.1)
        )
    }

    @Test("Different crashes get different signatures", arguments: differentPairs)
    func different(_ pair: Pair) {
        #expect(
            CrashSignature.make(exception: pair.lhs.0, frames: pair.lhs.1) != CrashSignature.make(exception: pair.rhs.0, frames: pair.rhs.1)
        )
    }

    @Test("The app's frames alone, without addresses: the system's around them differ from one OS version to another")
    func appFramesWithoutAddresses() {
        let signature = CrashSignature.make(exception: Self.badAccess, frames: Self.frames(offsets: [20, 1412, 2204, 88]))
        #expect(signature == "EXC_BAD_ACCESS/SIGSEGV @ ListingCell.configure(with:) < MarketplaceViewController.load()")
    }

    /// The pairs of SPEC-equivalent exceptions (docs/INGEST.md, "Signatures"): each row's exceptions, as different
    /// reporters write them, must give one signature head.
    static let equivalentExceptions: [(expected: String, exceptions: [ExceptionInfo])] = [
        (
            "EXC_CRASH/SIGABRT",
            [
                ExceptionInfo(type: "EXC_CRASH", signal: "SIGABRT"), ExceptionInfo(signal: "SIGABRT"), ExceptionInfo(type: "SIGABRT"),
                ExceptionInfo(type: "SIGABRT", signal: "SIGABRT"), ExceptionInfo(type: "", signal: "SIGABRT"),
            ]
        ),
        (
            "EXC_BAD_ACCESS/SIGSEGV",
            [ExceptionInfo(type: "EXC_BAD_ACCESS", signal: "SIGSEGV"), ExceptionInfo(signal: "SIGSEGV"), ExceptionInfo(type: "SIGSEGV")]
        ),
        (
            "EXC_BAD_ACCESS/SIGBUS",
            [ExceptionInfo(type: "EXC_BAD_ACCESS", signal: "SIGBUS"), ExceptionInfo(signal: "SIGBUS"), ExceptionInfo(type: "SIGBUS")]
        ),
        (
            "EXC_BREAKPOINT/SIGTRAP",
            [
                ExceptionInfo(type: "EXC_BREAKPOINT", signal: "SIGTRAP"), ExceptionInfo(signal: "SIGTRAP"),
                ExceptionInfo(type: "EXC_BREAKPOINT"),
                ExceptionInfo(type: "SIGTRAP"),
            ]
        ),
        ("EXC_BAD_INSTRUCTION/SIGILL", [ExceptionInfo(type: "EXC_BAD_INSTRUCTION", signal: "SIGILL"), ExceptionInfo(signal: "SIGILL")]),
        ("EXC_ARITHMETIC/SIGFPE", [ExceptionInfo(type: "EXC_ARITHMETIC"), ExceptionInfo(signal: "SIGFPE")]),
    ]

    @Test(
        "A Mach exception and the signal it implies are one crash, however a reporter writes them",
        arguments: 0..<equivalentExceptions.count)
    func equivalentExceptionsShareOneHead(index: Int) {
        let (expected, exceptions) = Self.equivalentExceptions[index]
        let frames = Self.frames(offsets: [20, 1412, 2204, 88])
        for exception in exceptions {
            let signature = CrashSignature.make(exception: exception, frames: frames)
            #expect(signature.hasPrefix(expected + " @ "), "\(exception) gave \(signature)")
        }
    }

    @Test(
        "Exceptions that are not the same crash keep apart",
        arguments: [
            (ExceptionInfo(type: "EXC_BAD_ACCESS", signal: "SIGSEGV"), ExceptionInfo(type: "EXC_BAD_ACCESS", signal: "SIGBUS")),
            (ExceptionInfo(signal: "SIGSEGV"), ExceptionInfo(signal: "SIGBUS")),
            (ExceptionInfo(type: "EXC_CRASH", signal: "SIGABRT"), ExceptionInfo(type: "NSInvalidArgumentException", signal: "SIGABRT")),
            (ExceptionInfo(type: "EXC_BAD_ACCESS"), ExceptionInfo(type: "EXC_BAD_ACCESS", signal: "SIGSEGV")),
            (ExceptionInfo(type: "EXC_CRASH", signal: "SIGKILL"), ExceptionInfo(type: "EXC_CRASH", signal: "SIGABRT")),
            (ExceptionInfo(type: "EXC_BREAKPOINT", signal: "SIGTRAP"), ExceptionInfo(type: "EXC_BAD_INSTRUCTION", signal: "SIGILL")),
        ])
    func differentExceptionsKeepApart(lhs: ExceptionInfo, rhs: ExceptionInfo) {
        let frames = Self.frames(offsets: [20, 1412, 2204, 88])
        #expect(CrashSignature.make(exception: lhs, frames: frames) != CrashSignature.make(exception: rhs, frames: frames))
    }

    @Test(
        "Heads of exceptions outside the pairs",
        arguments: [
            (ExceptionInfo(type: "NSInvalidArgumentException", signal: "SIGABRT"), "NSInvalidArgumentException/SIGABRT"),
            (ExceptionInfo(type: "EXC_BAD_ACCESS"), "EXC_BAD_ACCESS"),
            (ExceptionInfo(type: "EXC_CRASH", signal: "SIGKILL"), "EXC_CRASH/SIGKILL"),
            (ExceptionInfo(type: "MemoryTermination", signal: "SIGKILL"), "MemoryTermination/SIGKILL"),
            (ExceptionInfo(signal: "SIGKILL"), "unknown/SIGKILL"),
            (ExceptionInfo(), "unknown"),
        ])
    func otherHeads(exception: ExceptionInfo, expected: String) {
        #expect(CrashSignature.canonicalException(type: exception.type, signal: exception.signal) == expected)
    }

    @Test(
        "An uncaught language exception heads by its name alone, whichever way the reporter wrote the abort it ended in",
        arguments: [
            ExceptionInfo(type: "NSInvalidArgumentException", signal: "SIGABRT"),
            ExceptionInfo(type: "NSInvalidArgumentException"),
            ExceptionInfo(
                type: "NSInvalidArgumentException", signal: "SIGABRT", mach: "EXC_CRASH",
                language: ExceptionInfo.Language(name: "NSInvalidArgumentException", reason: "x")),
        ])
    func languageExceptionHeads(exception: ExceptionInfo) {
        let frames = Self.frames(offsets: [20, 1412, 2204, 88])
        #expect(CrashSignature.make(exception: exception, frames: frames).hasPrefix("NSInvalidArgumentException @ "))
        #expect(
            CrashSignature.make(exception: ExceptionInfo(type: "EXC_CRASH", signal: "SIGABRT"), frames: frames)
                .hasPrefix("EXC_CRASH/SIGABRT @ "))
    }

    @Test("An @objc thunk is named as the Swift function it enters")
    func objcThunks() {
        func signature(_ symbol: String) -> String {
            CrashSignature.make(
                exception: ExceptionInfo(type: "EXC_BREAKPOINT"),
                frames: [StackFrame(image: "App", symbol: symbol, offset: 12, inApp: true)])
        }
        #expect(signature("@objc App.Controller.crash() -> ()") == signature("App.Controller.crash() -> ()"))
    }

    @Test func aCrashWithoutFramesStillGetsOne() {
        #expect(CrashSignature.make(exception: ExceptionInfo(signal: "SIGKILL"), frames: []) == "unknown/SIGKILL @ (no frames)")
    }

    @Test("A block's number, which changes from build to build, is not part of the signature")
    func blockNumbers() {
        func signature(_ symbol: String) -> String {
            CrashSignature.make(
                exception: ExceptionInfo(type: "EXC_BAD_ACCESS", signal: "SIGSEGV"),
                frames: [StackFrame(image: "App", symbol: symbol, offset: 10, inApp: true)])
        }
        let plain = signature("__32-[AppDelegate(UI) crashCommands]_block_invoke")
        #expect(signature("__32-[AppDelegate(UI) crashCommands]_block_invoke375") == plain)
        #expect(signature("__32-[AppDelegate(UI) crashCommands]_block_invoke_2") == plain)
        #expect(plain == "EXC_BAD_ACCESS/SIGSEGV @ __32-[AppDelegate(UI) crashCommands]_block_invoke")
        // A name that merely contains the words keeps its tail
        #expect(signature("my_block_invoke_helper").hasSuffix("my_block_invoke_helper"))
        // Only the last occurrence counts; an underscore alone, or digits that are not ASCII, are not a number.
        #expect(signature("a_block_invoke_block_invoke12").hasSuffix(" a_block_invoke_block_invoke"))
        #expect(signature("a_block_invoke3_block_invoke").hasSuffix(" a_block_invoke3_block_invoke"))
        #expect(signature("a_block_invoke_").hasSuffix(" a_block_invoke_"))
        #expect(signature("a_block_invoke\u{0661}").hasSuffix(" a_block_invoke\u{0661}"))
        #expect(signature("é日本_block_invoke_7").hasSuffix(" é日本_block_invoke"))
        #expect(signature("_block_invoke9").hasSuffix(" _block_invoke"))
        #expect(signature("block_invoke9").hasSuffix(" block_invoke9"))
    }

    @Test("main is in the app's image but is not the app's code: it never takes an app frame's place")
    func mainIsNotAppCode() {
        let frames = [
            StackFrame(image: "libsystem_kernel.dylib", symbol: "__pthread_kill", offset: 8, inApp: false),
            StackFrame(image: "App", symbol: "main", offset: 40, inApp: true),
            StackFrame(image: "libdyld.dylib", symbol: "start", offset: 4, inApp: false),
        ]
        #expect(
            CrashSignature.make(exception: ExceptionInfo(signal: "SIGABRT"), frames: frames)
                == "EXC_CRASH/SIGABRT @ __pthread_kill < main < start")
    }

    @Test(
        "The specializations the optimizer chose for a build are not part of the signature",
        arguments: [
            ("generic specialization <Swift.Int> of App.Cache.value<A>(for: A) -> A?", "App.Cache.value<A>(for: A) -> A?"),
            (
                "function signature specialization <Arg[0] = Owned To Guaranteed> of generic specialization <Swift.Array<Swift.Int>> of App.sum<A>(A) -> Swift.Int",
                "App.sum<A>(A) -> Swift.Int"
            ),
            ("App.Cache.value<A>(for: A) -> A?", "App.Cache.value<A>(for: A) -> A?"),
            ("generic specialization <broken", "generic specialization <broken"),
        ])
    func specializations(symbol: String, expected: String) {
        let frames = [StackFrame(image: "App", symbol: symbol, offset: 16, inApp: true)]
        #expect(
            CrashSignature.make(exception: ExceptionInfo(type: "EXC_BREAKPOINT"), frames: frames) == "EXC_BREAKPOINT/SIGTRAP @ \(expected)")
    }
}
