import CrashtrailCore
import CrashtrailEncoding
import Foundation

/// The input of the `crashtrail trail` commands: a trail file in any form, or standard input, read whole.
public struct TrailInput: Sendable {
    /// How messages name it: the path, or `standard input`.
    public let name: String
    public let bytes: [UInt8]

    /// Reads `file`, or standard input when it is nil or `-`.
    /// - Throws: ``TrailFileError`` naming the file.
    public static func read(_ file: String?) throws -> TrailInput {
        guard let file, file != "-" else {
            return TrailInput(name: "standard input", bytes: Array(FileHandle.standardInput.readDataToEndOfFile()))
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            let exists = FileManager.default.fileExists(atPath: file)
            throw TrailFileError(.unreadable, file, exists ? "cannot read the file; check its permissions" : "no such file")
        }
        return TrailInput(name: file, bytes: Array(data))
    }

    /// The trail, in whatever form the input holds it.
    /// - Throws: ``TrailFileError`` naming the input and the codec's reason.
    public func decode(with codec: TrailCodec) throws -> Trail {
        try naming { () throws(TrailCodecError) in try codec.decode(bytes) }
    }

    /// Runs `body`, naming the input in a codec error it throws.
    /// - Throws: ``TrailFileError``.
    public func naming<T>(_ body: () throws(TrailCodecError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw TrailFileError(.undecodable, name, error.description, cause: error)
        }
    }
}

/// A trail input that could not be read or decoded, named by its file.
public struct TrailFileError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        /// The file does not exist or cannot be read.
        public static let unreadable = Code(name: "unreadable")
        /// The file is not a trail in any form.
        public static let undecodable = Code(name: "undecodable")
    }

    public var code: Code
    /// The file, or `standard input`.
    public var file: String
    public var message: String
    public var cause: (any Error & Sendable)?

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - file: the file, or `standard input`.
    ///   - message: what is wrong with it.
    ///   - cause: the decoder's error, when it refused the file.
    public init(_ code: Code, _ file: String, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.file = file
        self.message = message
        self.cause = cause
    }

    /// The file.
    public var location: String? { file }
}
