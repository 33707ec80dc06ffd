/// The binary images a payload lists, by the addresses each covers: finds the image an instruction address falls in,
/// as Sentry's symbolicator does (`image_addr` ≤ address < `image_addr` + `image_size`).
///
/// A frame's own name for its image is not enough: Sentry's protocol lets a frame's `package` be a path, a file name
/// or nothing at all, while `debug_meta` names each image by its path. An address never disagrees.
struct ImageAddressIndex<Image> {
    private var ranges: [(start: UInt64, end: UInt64, image: Image)] = []

    /// An index of `images`, each loaded at `start` and `size` bytes long; an image without a size, or whose range
    /// passes the end of the address space, is left out.
    init(_ images: [(start: UInt64, size: UInt64, image: Image)]) {
        for (start, size, image) in images where size > 0 {
            let (end, overflow) = start.addingReportingOverflow(size)
            if !overflow { ranges.append((start, end, image)) }
        }
        ranges.sort { $0.start < $1.start }
    }

    /// The image whose range holds `address`; nil when none does.
    func image(containing address: UInt64) -> Image? {
        // The last range starting at or before the address.
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].start <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0, address < ranges[low - 1].end else { return nil }
        return ranges[low - 1].image
    }

    /// Whether some address of `sortedAddresses` (ascending) falls in `start ..< start + size`.
    static func holdsAny(of sortedAddresses: [UInt64], start: UInt64, size: UInt64) -> Bool {
        guard size > 0 else { return false }
        let (end, overflow) = start.addingReportingOverflow(size)
        var low = 0
        var high = sortedAddresses.count
        while low < high {
            let middle = (low + high) / 2
            if sortedAddresses[middle] < start { low = middle + 1 } else { high = middle }
        }
        return low < sortedAddresses.count && (overflow || sortedAddresses[low] < end)
    }
}
