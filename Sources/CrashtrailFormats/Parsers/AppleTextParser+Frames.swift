import CrashtrailReports
import Foundation

/// The thread, frame and binary-image grammar of Apple text crash reports, as every renderer writes it.
///
/// Thread headings: `Thread 0 Crashed:`, `Thread 0 Crashed:: Dispatch queue: com.apple.main-thread` (Console, Xcode
/// and the simulator), `Thread 1 Crashed: NAME` (a thread name). A frame line is `INDEX IMAGE ADDRESS` and then:
/// - `SYMBOL + N`, possibly followed by `(FILE:LINE)` or ` [inlined]`;
/// - `SYMBOL (FILE:LINE)`;
/// - `LOAD_ADDRESS + N` (unsymbolicated), possibly followed by `(SYMBOL + N)` (KSCrash's Apple-format filter).
///
/// An image name may hold spaces (`App Namespace`). A symbol may span lines (a libc++ hardening message inside it,
/// then ` + 0 [inlined]` on the next line): a line that is not a frame, starts with white space and follows a frame
/// continues it. Binary image lines are `START - END [+]NAME ARCH [(VERSION)] <UUID> PATH`, the name possibly with
/// spaces.
extension AppleTextParser {
    struct Frame {
        var image: String
        var address: UInt64
        var symbol: String?
        /// The image's load address, when the line gives it.
        var loadAddress: UInt64?
    }

    /// Whether `line` heads the crashed thread: `Thread N Crashed` then `:` and anything.
    static func isCrashedThreadHeading(_ line: Substring) -> Bool {
        guard line.hasPrefix("Thread ") else { return false }
        let rest = line.dropFirst("Thread ".count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && rest.dropFirst(digits.count).hasPrefix(" Crashed:")
    }

    /// The crashed thread's index: the `Thread N Crashed` heading's, else the `Crashed Thread:` or `Triggered by
    /// Thread:` header's.
    static func crashedThreadIndex(_ lines: [Substring], triggered: String?) -> Int? {
        if let heading = lines.first(where: isCrashedThreadHeading) {
            return Int(heading.dropFirst("Thread ".count).prefix { $0.isASCII && $0.isNumber })
        }
        return triggered.flatMap { Int($0.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }) }
    }

    /// The frames under the crashed thread's heading, top first; under `Thread N:` for the thread a `Crashed Thread:`
    /// or `Triggered by Thread:` header names when no heading says `Crashed`.
    static func crashedThreadFrames(_ lines: [Substring], triggered: String?) -> [Frame] {
        var start = lines.firstIndex(where: isCrashedThreadHeading).map { $0 + 1 }
        if start == nil, let wanted = triggered.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            start = lines.firstIndex { $0.hasPrefix("Thread \(wanted):") }.map { $0 + 1 }
        }
        guard let start else { return [] }
        return frames(from: start, in: lines)
    }

    /// The frames of the uncaught exception's own backtrace, under `Last Exception Backtrace:` or `Application Specific
    /// Backtrace N:`, top first; none when the report has no such block, or gives it as a bare list of addresses.
    static func exceptionBacktraceFrames(_ lines: [Substring]) -> [Frame] {
        guard
            let heading = lines.firstIndex(where: {
                $0.hasPrefix("Last Exception Backtrace:") || $0.hasPrefix("Application Specific Backtrace")
            })
        else { return [] }
        return frames(from: heading + 1, in: lines)
    }

    /// The frame lines from `start` on, up to the first line that is neither a frame nor a continuation of one.
    static func frames(from start: Int, in lines: [Substring]) -> [Frame] {
        guard start < lines.count else { return [] }
        var frames: [Frame] = []
        var lastLine: String?
        for line in lines[start...] {
            if let frame = frame(line) {
                frames.append(frame)
                lastLine = String(line)
                continue
            }
            // A symbol that spans lines: the frame line again with this one after it.
            if let previous = lastLine, let first = line.first, first == " " || first == "\t",
                !line.allSatisfy(\.isWhitespace), let joined = frame(Substring(previous + " " + line.trimmingCharacters(in: .whitespaces)))
            {
                frames[frames.count - 1] = joined
                lastLine = previous + " " + line.trimmingCharacters(in: .whitespaces)
                continue
            }
            break
        }
        return frames
    }

    /// One frame line, or nil for a line that is not one.
    static func frame(_ line: Substring) -> Frame? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count >= 3, Int(words[0]) != nil,
            let addressIndex = words.indices.dropFirst(2).first(where: { Self.hexAddress(words[$0]) != nil }),
            let address = hexAddress(words[addressIndex])
        else { return nil }
        let image = words[1..<addressIndex].joined(separator: " ")
        let rest = words[(addressIndex + 1)...]
        guard let head = rest.first else { return Frame(image: image, address: address, symbol: nil, loadAddress: nil) }
        // `0x100f00000 + 122024`, possibly followed by `(symbol + 8)`.
        if let load = hexAddress(head) {
            var symbol: String?
            if let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")"), open < close {
                symbol = withoutOffset(line[line.index(after: open)..<close])
            }
            return Frame(image: image, address: address, symbol: symbol, loadAddress: load)
        }
        // `symbol + 32`, `symbol + 32 (File.swift:12)`, `symbol (File.swift:12)`, `symbol + 0 [inlined]`.
        var text = rest.joined(separator: " ")[...]
        if text.hasSuffix(" [inlined]") { text = text.dropLast(" [inlined]".count) }
        if text.hasSuffix(")"), let open = text.lastIndex(of: "("),
            isFileAndLine(text[text.index(after: open)..<text.index(before: text.endIndex)])
        {
            text = text[..<open]
        }
        let symbol = withoutOffset(text)
        return Frame(image: image, address: address, symbol: symbol, loadAddress: nil)
    }

    /// A symbol without its trailing ` + N` and surrounding white space; nil when nothing is left.
    static func withoutOffset(_ text: Substring) -> String? {
        var symbol = text.trimmingCharacters(in: .whitespaces)[...]
        if let plus = symbol.range(of: " + ", options: .backwards),
            symbol[plus.upperBound...].allSatisfy({ $0.isASCII && $0.isNumber }), plus.upperBound < symbol.endIndex
        {
            symbol = symbol[..<plus.lowerBound]
        }
        let trimmed = symbol.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `File.swift:12` or `File.swift:12:5`.
    static func isFileAndLine(_ text: Substring) -> Bool {
        let parts = text.split(separator: ":")
        return parts.count >= 2 && parts.count <= 3 && !parts[0].isEmpty
            && parts.dropFirst().allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// `0x…` as a number.
    static func hexAddress(_ word: Substring) -> UInt64? {
        guard word.hasPrefix("0x"), word.count > 2 else { return nil }
        return UInt64(word.dropFirst(2), radix: 16)
    }

    /// The architectures a binary image line names.
    static let architectures: Set<String> = [
        "arm64", "arm64e", "arm64_32", "armv6", "armv7", "armv7s", "armv7k", "armv8", "arm", "x86_64", "x86_64h", "i386", "ppc",
    ]

    /// A `Binary Images:` line's load address, path and UUID (as written, `<…>`).
    struct Image {
        var base: UInt64
        var path: String?
        var uuid: String?
    }

    /// `Binary Images:` lines, by image name.
    static func binaryImages(_ lines: [Substring]) -> [String: Image] {
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Binary Images:") }) else { return [:] }
        var images: [String: Image] = [:]
        for line in lines[(start + 1)...] {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 4, let base = hexAddress(words[0]), words[1] == "-" else { continue }
            // The name runs from the fourth word to the `(version)`, `<uuid>` or path, less the architecture before
            // them when there is one (old reports name bundles and give no architecture).
            var nameEnd =
                words.indices.dropFirst(4).first { words[$0].hasPrefix("(") || words[$0].hasPrefix("<") || words[$0].hasPrefix("/") }
                ?? words.count
            if nameEnd - 1 > 3, architectures.contains(String(words[nameEnd - 1])) { nameEnd -= 1 }
            var name = words[3..<nameEnd].joined(separator: " ")
            if name.hasPrefix("+") { name.removeFirst() }
            let path = line.firstIndex(of: "/").map { String(line[$0...]).trimmingCharacters(in: .whitespaces) }
            // As written: BinaryImage normalizes it, for the few images a report keeps.
            let uuid = words.first { $0.hasPrefix("<") && $0.hasSuffix(">") }.map(String.init)
            if images[name] == nil { images[name] = Image(base: base, path: path, uuid: uuid) }
        }
        return images
    }
}
