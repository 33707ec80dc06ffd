/// The crash group key: the exception type and signal plus the top frames of the crashed thread, normalized so
/// the same crash from another build or device gets the same signature.
///
/// Normalization drops addresses (`0x…`), `+ offset` suffixes and, where a frame has a symbol, its offset (which
/// moves from build to build); a frame without a symbol is named by its image and offset, which does not depend
/// on the ASLR slide. Up to three of the app's own frames come first, then up to two others, so a crash in the
/// app is grouped by the app code that led to it.
///
/// ```
/// EXC_BAD_ACCESS/SIGSEGV @ ListingViewController.configure(_:) < PirateBay < objc_msgSend
/// ```
public enum CrashSignature {
    /// How many of the app's frames the signature names.
    public static let appFrameCount = 3
    /// How many other frames it names after them.
    public static let otherFrameCount = 2

    /// The signature of a crash with this exception and crashed-thread frames (top first).
    public static func make(exception: ExceptionInfo, frames: [StackFrame]) -> String {
        let type = exception.type.map(clean) ?? "unknown"
        var head = type
        if let signal = exception.signal.map(clean), signal != type { head += "/\(signal)" }
        // Inlined frames repeat the same symbol; one is enough. Keys are made once per frame, and the walk stops
        // as soon as it has every frame the signature can name.
        var app: [String] = []
        var others: [String] = []
        var lastKey: String?
        for frame in frames where frame.symbol != nil || frame.image != nil {
            let key = frameKey(frame)
            if key == lastKey { continue }
            lastKey = key
            if frame.inApp {
                if app.count < appFrameCount { app.append(key) }
            } else if others.count < appFrameCount {
                others.append(key)
            }
            if app.count == appFrameCount, others.count >= otherFrameCount { break }
        }
        let parts = app + others.prefix(app.isEmpty ? appFrameCount : otherFrameCount)
        guard !parts.isEmpty else { return head + " @ (no frames)" }
        return head + " @ " + parts.joined(separator: " < ")
    }

    /// A frame's build-independent name.
    static func frameKey(_ frame: StackFrame) -> String {
        if let symbol = frame.symbol.map(clean), !symbol.isEmpty { return symbol }
        let image = frame.image.map(clean) ?? "?"
        return frame.offset.map { "\(image)+\($0)" } ?? image
    }

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
