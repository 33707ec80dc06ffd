/// The crash group key: the exception type and signal plus the top frames of the crashed thread, normalized so
/// the same crash from another build, device or crash reporter gets the same signature.
///
/// The exception is normalized first: a Mach exception and the signal it implies are one crash, whichever a
/// reporter names (``canonicalException(type:signal:)``): `EXC_CRASH (SIGABRT)` and a bare `SIGABRT` are both
/// `EXC_CRASH/SIGABRT`; `EXC_BAD_ACCESS` with `SIGSEGV` or `SIGBUS` and the bare signal are `EXC_BAD_ACCESS/SIGSEGV`
/// or `EXC_BAD_ACCESS/SIGBUS`; `EXC_BREAKPOINT` and `SIGTRAP` are `EXC_BREAKPOINT/SIGTRAP`.
///
/// Normalization drops addresses (`0x…`), `+ offset` suffixes, a block's number (`_block_invoke375`), a Swift
/// function's `generic specialization <…> of`, a system routine's CPU variant (`_platform_memmove$VARIANT$Haswell`)
/// and, where a frame has a symbol, its offset (which moves from build to build); a frame without a symbol is named by
/// its image and offset, which does not depend on the ASLR slide.
///
/// The frames named are the app's own (SPEC section 21): up to three of them, top first, and nothing of the system's
/// around them, which differs from one OS version or device to another. Only a crash with no app frame at all is named
/// by the system's frames, the named ones first (`<redacted>`, a private symbol iOS hides, names nothing), then the
/// images of nameless ones. `main`, though in the app's image, is not the app's code.
///
/// ```
/// EXC_BAD_ACCESS/SIGSEGV @ ListingViewController.configure(_:) < MarketplaceViewController.tableView(_:cellForRowAt:)
/// EXC_BAD_ACCESS/SIGSEGV @ objc_msgSend < CFRunLoopRunSpecific < GSEventRunModal
/// ```
package enum CrashSignature {
    /// How many frames the signature names.
    package static let frameCount = 3

    /// The signature of a crash with this exception and crashed-thread frames (top first).
    ///
    /// A crash with no frames to name (an out-of-memory or watchdog kill, a SIGKILL, a MetricKit diagnostic without a
    /// stack) is named by the screen on top at the crash when its trail says (SPEC section 15): `head @ screen:NAME`,
    /// else `head @ (no frames)`. `crashScreen` is only asked then.
    ///
    /// An uncaught language exception is named by its name alone (`NSInvalidArgumentException`): reporters disagree on
    /// whether to name the abort it ended in, and the name is what identifies it.
    /// - Parameters:
    ///   - exception: the crash's exception.
    ///   - frames: the crashed thread's frames, top first.
    ///   - limit: the most frames to name (a stack-trace rule's `max-frames`).
    ///   - crashScreen: the screen on top at the crash, asked only when no frame can be named.
    /// - Returns: the signature.
    package static func make(
        exception: ExceptionInfo, frames: [StackFrame], limit: Int = frameCount, crashScreen: () -> String? = { nil }
    ) -> String {
        let parts = frameNames(frames, limit: limit)
        return make(head: head(of: exception), frameNames: parts, crashScreen: crashScreen)
    }

    /// `head @ frame < frame`, or the stackless form when there are no frame names.
    package static func make(head: String, frameNames parts: [String], crashScreen: () -> String?) -> String {
        guard !parts.isEmpty else { return StacklessSignature.make(head: head, crashScreen: crashScreen()) }
        return head + " @ " + parts.joined(separator: " < ")
    }

    /// A signature's head: the language exception's name, else the exception and signal as one pair.
    package static func head(of exception: ExceptionInfo) -> String {
        let language = exception.completed().language.map { clean($0.name) }.flatMap { $0.isEmpty ? nil : $0 }
        return language ?? canonicalException(type: exception.type.map(clean), signal: exception.signal.map(clean))
    }

    /// The names a signature gives `frames` (top first).
    ///
    /// Up to three of the app's, else up to three named system frames, else the images of up to three nameless ones.
    /// Inlined frames repeat the same symbol; one is enough.
    package static func frameNames(_ frames: [StackFrame], limit: Int = frameCount) -> [String] {
        var app: [String] = []
        var system: [String] = []
        var nameless: [String] = []
        for frame in frames where frame.symbol != nil || frame.image != nil {
            if frame.inApp {
                let key = frameKey(frame)
                // `main` is in the app's image but is not the app's code: every crash of the main thread passes it.
                if key == "main" {
                    appendOnce(key, to: &system, limit: limit)
                    continue
                }
                appendOnce(key, to: &app, limit: limit)
                if app.count == limit { break }
            } else if app.isEmpty, system.count < limit {
                // System frames are named only while no app frame has been seen; the walk goes on to find one.
                if let name = systemName(frame) {
                    appendOnce(name, to: &system, limit: limit)
                } else if nameless.count < limit, let image = frame.image.map(clean), !image.isEmpty {
                    appendOnce(image, to: &nameless, limit: limit)
                }
            }
        }
        if !app.isEmpty { return app }
        return system.isEmpty ? nameless : system
    }

    /// Appends `key` unless it repeats the last one (an inlined frame, a recursion), up to `limit`.
    private static func appendOnce(_ key: String, to keys: inout [String], limit: Int) {
        guard keys.count < limit, keys.last != key else { return }
        keys.append(key)
    }

    /// A system frame's name, or nil when it has none a signature can use: no symbol, `<redacted>` (a private
    /// symbol iOS hides), `???`, or only an address.
    static func systemName(_ frame: StackFrame) -> String? {
        guard let symbol = frame.symbol, isName(clean(symbol)) else { return nil }
        return frameKey(frame)
    }

    /// Whether a cleaned symbol names a function rather than standing in for a missing name.
    static func isName(_ symbol: String) -> Bool {
        !symbol.isEmpty && symbol != "<redacted>" && symbol != "???" && symbol != "<unknown>"
    }

    /// A Mach exception and the signal it implies, in the order the kernel raises them: each pair names one crash.
    ///
    /// `EXC_BAD_ACCESS` raises `SIGSEGV` or `SIGBUS`, so it is paired with both; a bare `EXC_BAD_ACCESS` with no
    /// signal cannot say which and stays as it is.
    package static let machSignalPairs: [(exception: String, signal: String)] = [
        ("EXC_CRASH", "SIGABRT"), ("EXC_BAD_ACCESS", "SIGSEGV"), ("EXC_BAD_ACCESS", "SIGBUS"), ("EXC_BREAKPOINT", "SIGTRAP"),
        ("EXC_BAD_INSTRUCTION", "SIGILL"), ("EXC_ARITHMETIC", "SIGFPE"),
    ]

    /// The head of a signature: the exception type and signal with a Mach exception and the signal it implies
    /// written as one pair (`EXC_BAD_ACCESS/SIGSEGV`), whether a reporter named both, only the signal, or the signal
    /// as the type; any other type stays, followed by the signal when there is one (`NSInvalidArgumentException/SIGABRT`).
    package static func canonicalException(type: String?, signal: String?) -> String {
        // A reporter that knows only the signal may write it as the type.
        func isSignalName(_ text: String) -> Bool { text.hasPrefix("SIG") && text.count > 3 && text.dropFirst(3).allSatisfy(\.isUppercase) }
        let type = type.flatMap { $0.isEmpty ? nil : $0 }
        let signal = signal.flatMap { $0.isEmpty ? nil : $0 } ?? type.flatMap { isSignalName($0) ? $0 : nil }
        let exception = type.flatMap { isSignalName($0) ? nil : $0 }
        // The signal alone, or with the Mach exception that raises it.
        if let signal, let pair = machSignalPairs.first(where: { $0.signal == signal && (exception == nil || $0.exception == exception) }) {
            return "\(pair.exception)/\(pair.signal)"
        }
        // A Mach exception alone, when it raises one signal only.
        if signal == nil, let exception {
            let pairs = machSignalPairs.filter { $0.exception == exception }
            if pairs.count == 1 { return "\(pairs[0].exception)/\(pairs[0].signal)" }
        }
        let head = exception ?? "unknown"
        guard let signal, signal != head else { return head }
        return "\(head)/\(signal)"
    }

    /// A frame's build-independent name.
    static func frameKey(_ frame: StackFrame) -> String {
        // `<redacted>` and `???` stand in for a name: such a frame is named by its image and offset.
        if var symbol = frame.symbol.map(clean), isName(symbol) {
            // `@objc App.Controller.crash() -> ()` is the Objective-C entry to the Swift function it calls.
            if symbol.hasPrefix("@objc ") { symbol.removeFirst("@objc ".count) }
            // libplatform's routines come in CPU variants (`_platform_memmove$VARIANT$Haswell`): one routine.
            if symbol.utf8.contains(UInt8(ascii: "$")), let variant = symbol.range(of: "$VARIANT$") {
                symbol = String(symbol[..<variant.lowerBound])
            }
            return withoutBlockNumber(unspecialized(symbol))
        }
        let image = frame.image.map(clean) ?? "?"
        return frame.offset.map { "\(image)+\($0)" } ?? image
    }

    /// A demangled Swift function without the specializations the optimizer chose for this build:
    /// `generic specialization <Swift.Int> of App.Cache.value<A>(for: A) -> ()` is `App.Cache.value<A>(for: A) -> ()`,
    /// and so is a `function signature specialization <…> of` it.
    static func unspecialized(_ symbol: String) -> String {
        var rest = symbol[...]
        while let prefix = ["generic specialization <", "function signature specialization <"].first(where: { rest.hasPrefix($0) }) {
            // Skip to the `>` that closes the first `<`, then past ` of `.
            var depth = 0
            var index = rest.index(rest.startIndex, offsetBy: prefix.count - 1)
            var closed: Substring.Index?
            while index < rest.endIndex {
                if rest[index] == "<" { depth += 1 }
                if rest[index] == ">" {
                    depth -= 1
                    if depth == 0 {
                        closed = index
                        break
                    }
                }
                index = rest.index(after: index)
            }
            guard let closed, rest[rest.index(after: closed)...].hasPrefix(" of ") else { break }
            rest = rest[rest.index(closed, offsetBy: 5)...]
        }
        return rest.count == symbol.count ? symbol : String(rest)
    }

    /// A block's name without the number the compiler gives it, which changes from build to build:
    /// `__32-[AppDelegate(UI) crashCommands]_block_invoke375` and `…_block_invoke_2` are `…_block_invoke`.
    ///
    /// Searched for in the symbol's UTF-8: Foundation's backwards `range(of:)` went through `NSString` for every frame's
    /// symbol, 1.4 % of ingest's CPU.
    static func withoutBlockNumber(_ symbol: String) -> String {
        var symbol = symbol
        let end: Int? = symbol.withUTF8 { bytes in
            let length = blockInvoke.count
            var start = bytes.count - length
            func found(at start: Int) -> Bool {
                for offset in 0..<length where bytes[start + offset] != blockInvoke[offset] { return false }
                return true
            }
            while start >= 0, !found(at: start) { start -= 1 }
            guard start >= 0 else { return nil }
            let end = start + length
            let digits = end < bytes.count && bytes[end] == UInt8(ascii: "_") ? end + 1 : end
            guard digits < bytes.count, bytes[digits...].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return nil
            }
            return end
        }
        guard let end else { return symbol }
        return String(decoding: symbol.utf8.prefix(end), as: UTF8.self)
    }

    private static let blockInvoke = Array("_block_invoke".utf8)

    /// Drops hexadecimal addresses and `+ 123` offsets, and collapses whitespace.
    static func clean(_ text: String) -> String {
        // Most symbols are one word that is not an address: nothing to clean.
        if !text.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0B || $0 == 0x0C }),
            !text.hasPrefix("0x"), text != "+"
        {
            return text
        }
        var words: [Substring] = []
        var skipNext = false
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            if skipNext {
                skipNext = false
                if word.allSatisfy(\.isNumber) { continue }
            }
            if word == "+" {
                skipNext = true
                continue
            }
            if word.hasPrefix("0x"), word.dropFirst(2).allSatisfy(\.isHexDigit) { continue }
            words.append(word)
        }
        return words.joined(separator: " ")
    }
}
