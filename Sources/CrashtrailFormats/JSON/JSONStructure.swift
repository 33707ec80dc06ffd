import CrashtrailCore

/// The shape of a validated JSON document: where each array and object ends, so decoding can step over any of
/// them at once instead of scanning its content again.
///
/// Containers are numbered in the order they open (document order). A container's first nested container is
/// the next number; `after` is the number of the first container that opens after it closes, so a walk over a
/// container's elements goes from one nested container to the next sibling without searching.
package final class JSONStructure {
    /// One array or object.
    struct Span {
        /// The offset just past its closing `]` or `}`.
        var end: Int
        /// The number of the first container that opens after this one closes.
        var after: Int
    }

    /// Every array and object, in the order they open: a buffer this object owns, read in place.
    let spans: UnsafePointer<Span>
    let count: Int
    /// The offset of the root value (after a byte order mark and whitespace).
    let root: Int

    /// Takes ownership of `spans`, allocated with `UnsafeMutablePointer.allocate`.
    init(spans: UnsafeMutablePointer<Span>, count: Int, root: Int) {
        self.spans = UnsafePointer(spans)
        self.count = count
        self.root = root
    }

    deinit { UnsafeMutablePointer(mutating: spans).deallocate() }
}
