/// The binary form's header (docs/ENCODING.md, "Binary form"): magic `C7 54`, format version, the dictionary id
/// when the body needs a manifest, the inflated length of the deflated part, and the CRC-32 of the trail's
/// canonical JSON.
///
/// Version 2 is written (3 for a trail that says how its session ended); version 1, whose trails apps may still send,
/// is read too.
struct TrailHeader: Equatable {
    static let magic: [UInt8] = [0xC7, 0x54]
    static let currentVersion: UInt8 = 2
    /// The versions this build reads.
    static let readableVersions: ClosedRange<UInt8> = 1...3
    /// Version 2 with the session's ending and sample rate after the process ID (SPEC section 20): written only for the
    /// trail of a session sent after it ended.
    static let endedVersion: UInt8 = 3
    /// Version 1's flag bit: a 4-byte dictionary id follows.
    static let hasDictionary: UInt8 = 0x01

    var version: UInt8 = TrailHeader.currentVersion
    /// The manifest dictionary the body needs, nil when it needs none.
    var dictionaryID: UInt32?
    /// The inflated length of the deflate stream: version 1's whole body, version 2's structure.
    var bodyLength: Int
    /// CRC-32 of the decoded trail's canonical JSON.
    var checksum: UInt32

    /// Why a header was refused.
    enum HeaderError: Error, Equatable {
        case wrongMagic
        case truncated(String)
        case unsupportedVersion(UInt8)
        case unknownFlags(UInt8)
        case invalid(String)
    }

    func write(into out: inout ByteWriter) {
        out.append(Self.magic)
        out.byte(version)
        if version == 1 {
            out.byte(dictionaryID == nil ? 0 : Self.hasDictionary)
        } else {
            // Version 2 folds the dictionary flag into the length's lowest bit: one byte less than a flags byte.
            out.varint(UInt64(max(bodyLength, 0)) << 1 | (dictionaryID == nil ? 0 : 1))
        }
        if let dictionaryID { out.uint32(dictionaryID) }
        if version == 1 { out.varint(bodyLength) }
        out.uint32(checksum)
    }

    /// Reads a header and returns it with the offset where the deflate stream starts.
    static func read(_ bytes: [UInt8]) throws(HeaderError) -> (TrailHeader, Int) {
        for (index, expected) in magic.enumerated() {
            guard index < bytes.count else { throw .truncated("the data ends inside the magic bytes") }
            guard bytes[index] == expected else { throw .wrongMagic }
        }
        var reader = ByteReader(bytes, offset: magic.count)
        do {
            let version = try reader.byte("the format version")
            guard readableVersions.contains(version) else { throw HeaderError.unsupportedVersion(version) }
            let hasDictionary: Bool
            var length: UInt64 = 0
            if version == 1 {
                let flags = try reader.byte("the header flags")
                guard flags & ~Self.hasDictionary == 0 else { throw HeaderError.unknownFlags(flags) }
                hasDictionary = flags & Self.hasDictionary != 0
            } else {
                let lengthAndFlag = try reader.varint("the body length")
                hasDictionary = lengthAndFlag & 1 != 0
                length = lengthAndFlag >> 1
            }
            let dictionaryID = hasDictionary ? try reader.uint32("the dictionary id") : nil
            if version == 1 { length = try reader.varint("the body length") }
            let checksum = try reader.uint32("the checksum")
            let header = TrailHeader(
                version: version, dictionaryID: dictionaryID, bodyLength: Int(clamping: length), checksum: checksum)
            return (header, reader.offset)
        } catch let failure as HeaderError {
            throw failure
        } catch ByteReader.ReadError.truncated(let what) {
            throw .truncated(what)
        } catch ByteReader.ReadError.invalid(let what) {
            throw .invalid(what)
        } catch {
            throw .invalid("\(error)")
        }
    }
}
