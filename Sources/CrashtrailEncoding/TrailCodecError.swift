public import CrashtrailCore

/// Why an encoded trail was refused, or a trail could not be encoded: each problem has its own ``Code``.
public struct TrailCodecError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    ///
    /// Extensible: new codes may be added.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        /// The binary form does not start with crashtrail's magic bytes.
        public static let wrongMagic = Code(name: "wrong-magic")
        /// A binary format or text form version this build does not read.
        public static let unsupportedVersion = Code(name: "unsupported-version")
        /// Header flags this build does not know.
        public static let invalidHeader = Code(name: "invalid-header")
        /// The decoded trail's CRC-32 is not the one the header carries.
        public static let badChecksum = Code(name: "bad-checksum")
        /// The data ends before the header or the deflate stream does.
        public static let truncated = Code(name: "truncated")
        /// The header declares an inflated size above the cap.
        public static let declaredSizeOverCap = Code(name: "declared-size-over-cap")
        /// The deflate stream inflates past the cap (a deflate bomb); inflating stopped at the cap.
        public static let inflatedSizeOverCap = Code(name: "inflated-size-over-cap")
        /// The input is larger than the cap before inflating.
        public static let inputOverCap = Code(name: "input-over-cap")
        /// A trail with more steps than ``TrailCodec/Limits/maximumSteps``.
        public static let tooManySteps = Code(name: "too-many-steps")
        /// The body needs a manifest's dictionary the decoder was not given.
        public static let missingDictionary = Code(name: "missing-dictionary")
        /// The deflate stream or the body inside it is not what an encoder writes.
        public static let corruptBody = Code(name: "corrupt-body")
        /// `ct1:` text that is not base64url, or text in no known form.
        public static let invalidText = Code(name: "invalid-text")
        /// A split form without some part `crashtrail.N`.
        public static let missingPart = Code(name: "missing-part")
        /// A split form with the same part twice.
        public static let repeatedPart = Code(name: "repeated-part")
        /// A split form whose part sits under another part's key.
        public static let reorderedPart = Code(name: "reordered-part")
        /// A split form with a part of another encoded trail.
        public static let foreignPart = Code(name: "foreign-part")
        /// A split-form value that is not a crashtrail part.
        public static let invalidPart = Code(name: "invalid-part")
        /// A key limit too small to hold a part.
        public static let keyLimitTooSmall = Code(name: "key-limit-too-small")
        /// Input in none of the forms: binary, `ct1:` text, split keys or trail JSON.
        public static let unrecognizedForm = Code(name: "unrecognized-form")
        /// Trail JSON that is not a valid trail, or a trail that cannot be encoded (see `trailError`).
        public static let invalidTrail = Code(name: "invalid-trail")
        /// zlib failed (out of memory).
        public static let zlibFailure = Code(name: "zlib-failure")
    }

    public var code: Code
    /// What was wrong and, where it helps, how to fix it.
    public var message: String
    /// The trail problem underneath an ``Code/invalidTrail`` error.
    public var trailError: TrailError?

    /// The trail problem underneath, as the error's cause.
    public var cause: (any Error & Sendable)? { trailError }

    /// An error with its code and a message that says what was wrong and how to fix it.
    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: what was wrong, naming the field, part or size involved.
    ///   - trailError: the trail problem underneath, for ``Code/invalidTrail``.
    public init(_ code: Code, _ message: String, trailError: TrailError? = nil) {
        self.code = code
        self.message = message
        self.trailError = trailError
    }

}
