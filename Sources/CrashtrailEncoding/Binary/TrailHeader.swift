/// The binary form's header (docs/ENCODING.md, "Header"): magic `C7 54`, format version, flags, the
/// dictionary id when the body needs a manifest, the body's inflated length, and the CRC-32 of the trail's
/// canonical JSON.
struct TrailHeader: Equatable {
    static let magic: [UInt8] = [0xC7, 0x54]
    static let currentVersion: UInt8 = 1
    /// Flag bit: a 4-byte dictionary id follows.
    static let hasDictionary: UInt8 = 0x01

    var version: UInt8 = TrailHeader.currentVersion
    /// The manifest dictionary the body needs, nil when it needs none.
    var dictionaryID: UInt32?
    /// The body's length once inflated.
    var bodyLength: Int
    /// CRC-32 of the decoded trail's canonical JSON.
    var checksum: UInt32

    /// Why a header was refused.
    enum Failure: Error, Equatable {
        case wrongMagic
        case truncated(String)
        case unsupportedVersion(UInt8)
        case unknownFlags(UInt8)
        case invalid(String)
    }

    func write(into out: inout ByteWriter) {
        out.append(Self.magic)
        out.byte(version)
        out.byte(dictionaryID == nil ? 0 : Self.hasDictionary)
        if let dictionaryID { out.uint32(dictionaryID) }
        out.varint(bodyLength)
        out.uint32(checksum)
    }

    /// Reads a header and returns it with the offset where the deflate stream starts.
    static func read(_ bytes: [UInt8]) throws(Failure) -> (TrailHeader, Int) {
        for (index, expected) in magic.enumerated() {
            guard index < bytes.count else { throw .truncated("the data ends inside the magic bytes") }
            guard bytes[index] == expected else { throw .wrongMagic }
        }
        var reader = ByteReader(bytes, offset: magic.count)
        do {
            let version = try reader.byte("the format version")
            guard version == currentVersion else { throw Failure.unsupportedVersion(version) }
            let flags = try reader.byte("the header flags")
            guard flags & ~hasDictionary == 0 else { throw Failure.unknownFlags(flags) }
            let dictionaryID = flags & hasDictionary != 0 ? try reader.uint32("the dictionary id") : nil
            let length = try reader.varint("the body length")
            let checksum = try reader.uint32("the checksum")
            let header = TrailHeader(
                version: version, dictionaryID: dictionaryID, bodyLength: Int(clamping: length), checksum: checksum)
            return (header, reader.offset)
        } catch let failure as Failure {
            throw failure
        } catch ByteReader.Failure.truncated(let what) {
            throw .truncated(what)
        } catch ByteReader.Failure.invalid(let what) {
            throw .invalid(what)
        } catch {
            throw .invalid("\(error)")
        }
    }
}
