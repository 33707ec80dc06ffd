import Foundation

extension StackFrame {
    /// The frame's source file name and line as reports print them (`ListingView.swift:42`, or the file alone when the
    /// debug file gave no line); nil when no debug file named a file.
    public var sourceLocation: String? {
        file.map { (($0 as NSString).lastPathComponent) + (line.map { ":\($0)" } ?? "") }
    }

    /// Each frame with the number Apple's symbolicated reports give it: a function inlined into the frame below it
    /// shares that frame's number (`[inlined]` frames are not counted).
    public static func numbered(_ frames: some Sequence<StackFrame>) -> [(number: Int, frame: StackFrame)] {
        var number = 0
        return frames.map { frame in
            defer { if !frame.inlined { number += 1 } }
            return (number, frame)
        }
    }
}
