/// The crash group key: the exception type and signal plus the top frames of the crashed thread, normalized so
/// the same crash from another build, device or crash reporter gets the same signature.
///
/// The exception is normalized first: a Mach exception and the signal it implies are one crash, whichever a
/// reporter names (``canonicalException(type:signal:)``): `EXC_CRASH (SIGABRT)` and a bare `SIGABRT` are both
/// `EXC_CRASH/SIGABRT`; `EXC_BAD_ACCESS` with `SIGSEGV` or `SIGBUS` and the bare signal are `EXC_BAD_ACCESS/SIGSEGV`
/// or `EXC_BAD_ACCESS/SIGBUS`; `EXC_BREAKPOINT` and `SIGTRAP` are `EXC_BREAKPOINT/SIGTRAP`.
///
/// Normalization drops addresses (`0x…`), `+ offset` suffixes, a block's number (`_block_invoke375`), a Swift
/// function's `generic specialization <…> of` and, where a frame has a symbol, its offset (which moves from build to
/// build); a frame without a symbol is named by its image and offset, which does not depend
/// on the ASLR slide. Up to three of the app's own frames come first, then up to two others, so a crash in the
/// app is grouped by the app code that led to it; `main`, though in the app's image, counts as another's.
///
/// ```
/// EXC_BAD_ACCESS/SIGSEGV @ ListingViewController.configure(_:) < PirateBay < objc_msgSend
/// ```
package enum CrashSignature {
    /// How many of the app's frames the signature names.
    package static let appFrameCount = 3
    /// How many other frames it names after them.
    package static let otherFrameCount = 2

    /// The signature of a crash with this exception and crashed-thread frames (top first).
    ///
    /// A crash with no frames to name (an out-of-memory or watchdog kill, a SIGKILL, a MetricKit diagnostic without a
    /// stack) is named by the screen on top at the crash when its trail says (SPEC section 15): `head @ screen:NAME`,
    /// else `head @ (no frames)`. `crashScreen` is only asked then.
    ///
    /// An uncaught language exception is named by its name alone (`NSInvalidArgumentException`): reporters disagree on
    /// whether to name the abort it ended in, and the name is what identifies it.
    package static func make(exception: ExceptionInfo, frames: [StackFrame], crashScreen: () -> String? = { nil }) -> String {
        let language = exception.completed().language.map { clean($0.name) }.flatMap { $0.isEmpty ? nil : $0 }
        let head = language ?? canonicalException(type: exception.type.map(clean), signal: exception.signal.map(clean))
        // Inlined frames repeat the same symbol; one is enough. Keys are made once per frame, and the walk stops
        // as soon as it has every frame the signature can name.
        var app: [String] = []
        var others: [String] = []
        var lastKey: String?
        for frame in frames where frame.symbol != nil || frame.image != nil {
            let key = frameKey(frame)
            if key == lastKey { continue }
            lastKey = key
            // `main` is in the app's image but is not the app's code: every crash of the main thread passes it.
            if frame.inApp, key != "main" {
                if app.count < appFrameCount { app.append(key) }
            } else if others.count < appFrameCount {
                others.append(key)
            }
            if app.count == appFrameCount, others.count >= otherFrameCount { break }
        }
        let parts = app + others.prefix(app.isEmpty ? appFrameCount : otherFrameCount)
        guard !parts.isEmpty else { return StacklessSignature.make(head: head, crashScreen: crashScreen()) }
        return head + " @ " + parts.joined(separator: " < ")
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
        if var symbol = frame.symbol.map(clean), !symbol.isEmpty {
            // `@objc App.Controller.crash() -> ()` is the Objective-C entry to the Swift function it calls.
            if symbol.hasPrefix("@objc ") { symbol.removeFirst("@objc ".count) }
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
