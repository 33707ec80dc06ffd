import CSystemZlib

// This is the only file of the project that imports `CSystemZlib`: raw deflate for trail bodies (`RawDeflate`), zlib streams
// for whole payloads (`ZlibStream`: raw payloads in stores written before zstd) and HTTP bodies sent with
// `Content-Encoding: gzip` or `deflate` (`ZlibStream.inflated`), all over the system zlib.

/// Raw deflate and inflate (RFC 1951, no zlib or gzip wrapper: the trail header carries its own length and
/// checksum) over the system zlib, with an optional preset dictionary and a hard cap on inflated output.
enum RawDeflate {
    /// Why inflating failed.
    enum StreamError: Error, Equatable {
        /// The stream is not valid deflate data (zlib's message).
        case corrupt(String)
        /// The input ended before the deflate stream did.
        case truncated
        /// The output grew past the cap; inflating stopped there.
        case overCap
        /// Bytes follow the end of the deflate stream.
        case trailingBytes(Int)
        /// zlib could not start (out of memory, version mismatch).
        case zlib(String)

        /// What went wrong, for a body inflated with a cap of `limit` bytes.
        func description(limit: Int) -> String {
            switch self {
            case .corrupt(let message): "the compressed body is corrupt (\(message))"
            case .truncated: "the compressed body ends before its stream does"
            case .overCap: "over the limit: the body inflates to more than \(limit) bytes"
            case .trailingBytes(let count): "\(count) bytes follow the end of the compressed stream"
            case .zlib(let message): "zlib failed: \(message)"
            }
        }
    }

    /// How zlib may compress: each gives a valid raw deflate stream, and small bodies favour different ones.
    enum Strategy: CaseIterable {
        /// Level 9, dynamic or fixed Huffman codes as zlib judges.
        case standard
        /// Level 9, fixed Huffman codes only: no code tables to send, best for the smallest bodies.
        case fixed
        /// Stored blocks: no compression, five bytes of framing, for bodies that do not compress.
        case stored

        var level: Int32 { self == .stored ? 0 : 9 }
        var zlibStrategy: Int32 { self == .fixed ? Z_FIXED : Z_DEFAULT_STRATEGY }
    }

    /// The smallest of the strategies' deflate streams of `input`.
    /// - Throws: `StreamError.zlib` when zlib cannot start or fails, which only happens when memory runs out.
    static func smallestDeflate(_ input: [UInt8], dictionary: [UInt8], blockEnds: [Int] = []) throws(StreamError) -> [UInt8] {
        var best: [UInt8]?
        if !blockEnds.isEmpty {
            best = try deflate(input, dictionary: dictionary, blockEnds: blockEnds)
        }
        // Past a couple of kilobytes dynamic codes always win; trying the others would only cost time.
        for strategy in input.count > 2_048 ? [.standard] : Strategy.allCases {
            let candidate = try deflate(input, dictionary: dictionary, strategy: strategy)
            if candidate.count < best?.count ?? Int.max { best = candidate }
        }
        return best ?? []
    }

    /// Deflates `input` with the largest window, priming the window with `dictionary`.
    /// - Throws: `StreamError.zlib` when zlib cannot start or fails, which only happens when memory runs out.
    static func deflate(
        _ input: [UInt8], dictionary: [UInt8], strategy: Strategy = .standard, blockEnds: [Int] = []
    ) throws(StreamError) -> [UInt8] {
        var stream = z_stream()
        // windowBits -15: raw deflate with a 32 KiB window.
        var status = crashtrail_deflateInit2(&stream, strategy.level, Z_DEFLATED, -15, 9, strategy.zlibStrategy)
        guard status == Z_OK else { throw .zlib("deflateInit2 returned \(status)") }
        defer { deflateEnd(&stream) }
        if !dictionary.isEmpty {
            status = dictionary.withUnsafeBufferPointer { buffer in
                deflateSetDictionary(&stream, buffer.baseAddress, uInt(buffer.count))
            }
            guard status == Z_OK else { throw .zlib("deflateSetDictionary returned \(status)") }
        }
        // Segments end where a block must end (Z_BLOCK), so each gets Huffman codes fitted to its own bytes.
        let ends = blockEnds.filter { $0 > 0 && $0 < input.count }.sorted() + [input.count]
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 16 * ends.count
        var output = [UInt8](repeating: 0, count: max(bound, 64))
        let produced: Int = input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                // zlib's next_in is not const-qualified, but deflate only reads through it.
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                var start = 0
                for (index, end) in ends.enumerated() where end >= start {
                    stream.next_in = inBuffer.baseAddress.map { UnsafeMutablePointer(mutating: $0 + start) }
                    stream.avail_in = uInt(end - start)
                    status = CSystemZlib.deflate(&stream, index == ends.count - 1 ? Z_FINISH : Z_BLOCK)
                    start = end
                }
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        guard status == Z_STREAM_END else { throw .zlib("deflate returned \(status)") }
        output.removeSubrange(produced...)
        return output
    }

    /// Inflates a complete raw deflate stream, refusing trailing bytes and stopping as soon as the output would
    /// exceed `cap` bytes, so a deflate bomb costs at most `cap` bytes of memory.
    /// - Throws: `StreamError` saying whether the data was corrupt, truncated, over the cap or followed by bytes.
    static func inflate(_ input: [UInt8], dictionary: [UInt8], cap: Int, windowBits: Int32 = -15) throws(StreamError) -> [UInt8] {
        let (output, consumed) = try inflatePrefix(input, dictionary: dictionary, cap: cap, windowBits: windowBits)
        guard consumed == input.count else { throw .trailingBytes(input.count - consumed) }
        return output
    }

    /// Inflates the raw deflate stream at the start of `input`, which may be followed by other bytes, stopping as
    /// soon as the output would exceed `cap` bytes.
    /// - Returns: the inflated bytes and how many bytes of `input` the stream took.
    /// - Throws: `StreamError` saying whether the data was corrupt, truncated or over the cap.
    /// - Parameters:
    ///   - input: the stream, possibly followed by other bytes.
    ///   - dictionary: the preset dictionary, or empty.
    ///   - cap: the most bytes it may inflate to.
    ///   - windowBits: zlib's `windowBits`: -15 for raw deflate (the default), 15 + 32 for a zlib or gzip stream.
    static func inflatePrefix(
        _ input: [UInt8], dictionary: [UInt8], cap: Int, windowBits: Int32 = -15
    ) throws(StreamError) -> (output: [UInt8], consumed: Int) {
        // A cap below zero is no room at all, never a negative count handed to zlib.
        let cap = max(0, cap)
        var stream = z_stream()
        var status = crashtrail_inflateInit2(&stream, windowBits)
        guard status == Z_OK else { throw .zlib("inflateInit2 returned \(status)") }
        defer { inflateEnd(&stream) }
        if !dictionary.isEmpty {
            // A raw stream has no dictionary request: the dictionary is set before the first byte.
            status = dictionary.withUnsafeBufferPointer { buffer in
                inflateSetDictionary(&stream, buffer.baseAddress, uInt(buffer.count))
            }
            guard status == Z_OK else { throw .zlib("inflateSetDictionary returned \(status)") }
        }
        var output: [UInt8] = []
        output.reserveCapacity(min(cap, max(256, input.count * 4)))
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var failure: StreamError?
        var consumed = 0
        input.withUnsafeBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
            stream.avail_in = uInt(inBuffer.count)
            while true {
                // Never ask for more than one byte past the cap: that byte proves the cap was exceeded.
                let room = min(chunk.count, cap + 1 - output.count)
                let produced: Int = chunk.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = uInt(room)
                    status = CSystemZlib.inflate(&stream, Z_NO_FLUSH)
                    return room - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > cap {
                    failure = .overCap
                    return
                }
                switch status {
                case Z_STREAM_END:
                    consumed = inBuffer.count - Int(stream.avail_in)
                    return
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    // No progress was possible: either the input ran out or (with room left) it was cut short.
                    failure = stream.avail_in == 0 ? .truncated : .corrupt("inflate made no progress")
                    return
                case Z_DATA_ERROR:
                    failure = .corrupt(stream.msg.map { String(cString: $0) } ?? "invalid deflate data")
                    return
                case Z_NEED_DICT:
                    failure = .corrupt("the stream asks for a dictionary")
                    return
                default:
                    failure = .zlib("inflate returned \(status)")
                    return
                }
            }
        }
        if let failure { throw failure }
        return (output, consumed)
    }

    /// The CRC-32 (ISO-HDLC, as in gzip and PNG) of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: CSystemZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}

/// The CRC-32 (ISO-HDLC, as in gzip and PNG) of the system zlib, for other parts' own checksums (the journal's
/// records).
package enum CRC32 {
    /// The CRC-32 of `bytes`, continuing from `crc` (0 to start).
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return UInt32(truncatingIfNeeded: CSystemZlib.crc32(uLong(crc), base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }

    /// The CRC-32 of `bytes`, continuing from `crc` (0 to start).
    package static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }
}

/// One-shot zlib streams (RFC 1950): how stores written before zstd kept the collector's raw crash payloads.
package enum ZlibStream {
    /// The zlib stream of `bytes` at `level` (1, fastest, to 9, smallest).
    /// - Returns: the stream; empty only if zlib runs out of memory.
    package static func compressed(_ bytes: UnsafeBufferPointer<UInt8>, level: Int32 = 1) -> [UInt8] {
        var capacity = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = output.withUnsafeMutableBufferPointer { out in
            // `compress2` takes a non-null source even for an empty input.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { empty in
                compress2(
                    out.baseAddress, &capacity, bytes.baseAddress ?? UnsafePointer(empty.baseAddress),
                    uLong(bytes.count), level)
            }
        }
        // compress2 only fails for a too-small buffer or no memory; compressBound rules out the first.
        guard status == Z_OK else { return [] }
        output.removeLast(output.count - Int(capacity))
        return output
    }

    /// How an HTTP body was compressed (`Content-Encoding`).
    package enum Wrapper: Sendable {
        /// gzip (RFC 1952).
        case gzip
        /// `deflate`: a zlib stream (RFC 1950) as the HTTP standard says, or raw deflate (RFC 1951) as some clients
        /// send it.
        case deflate
    }

    /// Inflates a compressed HTTP body, stopping as soon as the output would pass `cap` bytes, so a decompression
    /// bomb costs at most `cap` bytes of memory however far it would inflate.
    /// - Returns: the inflated bytes.
    /// - Throws: `ZlibError`: `corrupt`, `truncated`, `trailing-bytes`, or `over-cap` when it inflates past `cap`.
    package static func inflated(_ bytes: [UInt8], wrapper: Wrapper, cap: Int) throws(ZlibError) -> [UInt8] {
        do {
            // 15 + 32: zlib or gzip, told apart by their headers.
            return try RawDeflate.inflate(bytes, dictionary: [], cap: cap, windowBits: 15 + 32)
        } catch .corrupt(let message) where wrapper == .deflate {
            // A raw stream has no header to recognize: try it as raw deflate before refusing it.
            if let raw = try? RawDeflate.inflate(bytes, dictionary: [], cap: cap, windowBits: -15) { return raw }
            throw ZlibError(.corrupt, "the body is not a zlib or raw deflate stream (\(message))")
        } catch {
            throw ZlibError(error, limit: cap)
        }
    }

    /// Restores exactly `size` bytes from a zlib stream.
    /// - Parameters:
    ///   - bytes: the stream.
    ///   - size: how many bytes it must inflate to; no more are ever allocated.
    /// - Returns: the inflated bytes.
    /// - Throws: `ZlibError` (`corrupt`) when the stream is corrupt or does not inflate to exactly `size` bytes.
    package static func decompressed(_ bytes: [UInt8], size: Int) throws(ZlibError) -> [UInt8] {
        guard size > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: size)
        var produced = uLong(size)
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &produced, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK, Int(produced) == size else {
            throw ZlibError(.corrupt, "zlib status \(status), \(produced) of \(size) bytes")
        }
        return output
    }
}
