extension TrailBodyDecoder {
    /// Reads the raw column's length and moves that many bytes from the end of the rest of the body into `raw`.
    mutating func splitRawColumn() throws(ReadError) {
        let rawLength = try reader.count("the raw column's length", atMost: reader.remaining)
        let body = Array(reader.remainingBytes)
        guard rawLength <= body.count else {
            throw .invalid("the raw column is \(rawLength) bytes but only \(body.count) follow")
        }
        let structureEnd = body.count - rawLength
        raw = ByteReader(Array(body[structureEnd...]))
        reader = ByteReader(Array(body[..<structureEnd]))
    }

    /// `count` bytes of the raw column.
    ///
    /// In format version 2 the raw column ends the input, so running out of it
    /// means the input was cut short; in version 1 it ends the inflated body, which then is corrupt.
    mutating func rawBytes(_ count: Int, _ what: @autoclosure () -> String) throws(ReadError) -> ArraySlice<UInt8> {
        do {
            return try raw.bytes(count, what())
        } catch .truncated(let message) where formatVersion >= 2 && !rawIsDeflated {
            throw .inputEnds(message)
        }
    }
}
