import CrashtrailCore

/// The canonical JSON of each destination in a decoder's table, written the first time a step names it: a trail
/// names the same few table slots again and again, and a slot's JSON never changes.
struct DestinationJSONCache {
    /// Every written destination's JSON, end to end.
    private var bytes: [UInt8] = []
    /// Where each table slot's JSON sits in `bytes`, by table index; nil until first written.
    private var ranges: [Range<Int>?] = []

    /// Appends the canonical JSON of table slot `index` to `out`, writing it from `destination()` the first time.
    mutating func append(slot index: Int, _ destination: () -> Destination, to out: inout [UInt8]) {
        let range: Range<Int>
        if index < ranges.count, let known = ranges[index] {
            range = known
        } else {
            if index >= ranges.count { ranges.append(contentsOf: repeatElement(nil, count: index + 1 - ranges.count)) }
            let start = bytes.count
            TrailCanonicalWriter.write(destination(), into: &bytes)
            range = start..<bytes.count
            ranges[index] = range
        }
        // Copied through a buffer pointer: slicing the array would retain and release its storage every step.
        bytes.withUnsafeBufferPointer { buffer in
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[range]))
        }
    }
}
