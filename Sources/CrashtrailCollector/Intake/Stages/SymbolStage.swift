import CrashtrailStore

/// The symbols stage of the intake path: the frames of the crashed thread and of the exception backtrace with their
/// functions named as a reader writes them (mangled Swift and C++ names demangled, the name as written kept).
struct SymbolStage: Sendable {
    /// The crashed thread's frames and the exception backtrace, named.
    struct Frames {
        var crashed: [StackFrame]
        var exception: [StackFrame]

        /// The frames the signature names: where an uncaught exception was thrown when the payload gives its
        /// backtrace, not the abort path every exception shares; else the crashed thread's.
        var signing: [StackFrame] { exception.isEmpty ? crashed : exception }
    }

    /// The frames of `parsed`, named.
    func frames(of parsed: ParsedPayload) -> Frames {
        Frames(crashed: Self.demangled(parsed.frames), exception: Self.demangled(parsed.exceptionFrames))
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
