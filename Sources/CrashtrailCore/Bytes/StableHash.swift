/// A 64-bit hash of a string that is the same in every process and on every platform, unlike `Hasher`: FNV-1a 64 over
/// the UTF-8 bytes, then MurmurHash3's fmix64, so that every output bit depends on every input bit.
///
/// Used where a decision must hold across processes: which register of a user sketch an ID raises, which sessions fall
/// in a sampled share.
public enum StableHash {
    /// The hash of `text`'s UTF-8 bytes.
    public static func of(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash &*= 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }
}
