import CBrotli

// This is the only file of the project that imports `CBrotli`.

/// Request bodies sent with `Content-Encoding: br` (Brotli, RFC 7932), as Sentry's Python SDK sends them when the
/// `brotli` module is installed beside it.
enum BrotliBody {
    /// Why a body did not inflate.
    enum InflateError: Error, Equatable {
        /// The body is not a Brotli stream.
        case corrupt(String)
        /// The body ends before its stream does, or bytes follow its end.
        case truncated
        /// The body inflates to more than the cap; inflating stopped there.
        case overCap
    }

    /// The inflated body, stopping as soon as the output would pass `cap` bytes, so a decompression bomb costs at most
    /// `cap` bytes of memory however far it would inflate.
    /// - Parameters:
    ///   - bytes: the compressed body.
    ///   - cap: the most bytes it may inflate to.
    /// - Returns: the inflated bytes.
    /// - Throws: ``InflateError``.
    static func inflated(_ bytes: [UInt8], cap: Int) throws(InflateError) -> [UInt8] {
        guard let decoder = BrotliDecoderCreateInstance(nil, nil, nil) else { throw .corrupt("the Brotli decoder could not start") }
        defer { BrotliDecoderDestroyInstance(decoder) }
        var output: [UInt8] = []
        let chunk = 64 << 10
        var buffer = [UInt8](repeating: 0, count: chunk)
        return try bytes.withUnsafeBufferPointer { (input) throws(InflateError) -> [UInt8] in
            var availableIn = input.count
            var nextIn = input.baseAddress
            while true {
                var availableOut = chunk
                let result = buffer.withUnsafeMutableBufferPointer { out in
                    var nextOut = out.baseAddress
                    return BrotliDecoderDecompressStream(decoder, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                }
                let produced = chunk - availableOut
                guard output.count + produced <= cap else { throw .overCap }
                output.append(contentsOf: buffer[..<produced])
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    guard availableIn == 0 else { throw .truncated }
                    return output
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
                    continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                    throw .truncated
                default:
                    let code = BrotliDecoderGetErrorCode(decoder)
                    throw .corrupt(String(cString: BrotliDecoderErrorString(code)))
                }
            }
        }
    }
}
