import CrashtrailFormats
import CrashtrailReports
import CrashtrailStore
import CrashtrailSymbols

/// The symbols stage of the intake path: the frames of the crashed thread and of the exception backtrace with their
/// functions named (SPEC section 16).
///
/// A frame whose image the payload names with a UUID that has a debug file in the store is looked up there: the
/// function, file and line at its address, and the functions inlined there as frames of their own, innermost first. A
/// frame's address is its image's `__TEXT` vmaddr in the debug file plus its offset; every frame but the crashed
/// thread's first is a return address, so the call that made it is looked up, one byte before. Any other frame keeps
/// what the payload gave, its mangled Swift or C++ name demangled (the name as written kept in `rawSymbol`).
struct SymbolStage: Sendable {
    /// The crashed thread's frames and the exception backtrace, named, and the images the report names.
    struct Frames {
        var crashed: [StackFrame]
        var exception: [StackFrame]
        /// The UUIDs of the images whose debug file named frames (or was there to name them).
        var symbolicatedImages: Set<String> = []

        /// The frames the signature names: where an uncaught exception was thrown when the payload gives its
        /// backtrace, not the abort path every exception shares; else the crashed thread's.
        var signing: [StackFrame] { exception.isEmpty ? crashed : exception }
    }

    /// Looks addresses up in the store's debug files; nil when none is used (no store, as for a file replayed alone).
    let symbolicator: Symbolicator?

    /// The frames of `parsed`, named.
    func frames(of parsed: ParsedPayload, project: ProjectID) -> Frames {
        guard let symbolicator, symbolicator.canSymbolicate, !parsed.binaryImages.isEmpty else {
            return Frames(crashed: Self.demangled(parsed.frames), exception: Self.demangled(parsed.exceptionFrames))
        }
        var images: [String: DebugFile] = [:]
        for image in parsed.binaryImages where images[image.name] == nil {
            if let uuid = image.uuid, let file = symbolicator.debugFile(uuid: uuid, project: project) { images[image.name] = file }
        }
        guard !images.isEmpty else {
            return Frames(crashed: Self.demangled(parsed.frames), exception: Self.demangled(parsed.exceptionFrames))
        }
        // Every address of the payload in one batch.
        let all = parsed.frames.enumerated().map { ($0.element, $0.offset > 0) } + parsed.exceptionFrames.map { ($0, true) }
        var lookups: [Symbolicator.Lookup] = []
        var lookupOf: [Int: Int] = [:]
        for (index, (frame, isReturn)) in all.enumerated() {
            guard let name = frame.image, let file = images[name], let offset = frame.offset, offset >= (isReturn ? 1 : 0) else {
                continue
            }
            lookupOf[index] = lookups.count
            lookups.append(
                Symbolicator.Lookup(
                    uuid: file.uuid, address: file.textVMAddr &+ UInt64(offset) &- (isReturn ? 1 : 0), project: file.project))
        }
        let (answers, answered) = symbolicator.lookUp(lookups)
        var named: [[StackFrame]] = []
        for (index, (frame, _)) in all.enumerated() {
            guard let lookup = lookupOf[index], let found = answers[lookup] else {
                named.append(Self.demangled([frame]))
                continue
            }
            // The instruction's own address (not the call's, a return address less one) against the function's start.
            let address = Int64(bitPattern: lookups[lookup].address) &+ (all[index].1 ? 1 : 0)
            named.append(
                found.map { symbol in
                    StackFrame(
                        image: frame.image, symbol: Demangler.demangle(symbol.rawSymbol) ?? symbol.rawSymbol, offset: frame.offset,
                        inApp: frame.inApp, rawSymbol: symbol.rawSymbol, file: symbol.file, line: symbol.line, inlined: symbol.inlined,
                        functionOffset: symbol.startAddress.flatMap { start in
                            let start = Int64(bitPattern: start)
                            return start <= address ? address - start : nil
                        })
                })
        }
        return Frames(
            crashed: named.prefix(parsed.frames.count).flatMap { $0 }, exception: named.dropFirst(parsed.frames.count).flatMap { $0 },
            // An image counts as symbolicated only when the symbolizer answered for it; the others wait, and are looked up
            // again later (a symbolizer that timed out or died, SPEC section 19).
            symbolicatedImages: Set(images.values.map(\.uuid)).subtracting(Set(lookups.map(\.uuid)).subtracting(answered)))
    }

    /// The frames with mangled Swift and C++ symbols demangled, the name as written kept in `rawSymbol`.
    static func demangled(_ frames: [StackFrame]) -> [StackFrame] {
        frames.map { frame in
            guard frame.rawSymbol == nil, let symbol = frame.symbol, let readable = Demangler.demangle(symbol) else { return frame }
            var demangled = frame
            demangled.symbol = readable
            demangled.rawSymbol = symbol
            return demangled
        }
    }
}
