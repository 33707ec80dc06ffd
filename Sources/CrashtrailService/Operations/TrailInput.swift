import CrashtrailCore
import CrashtrailEncoding
import Foundation

/// The input of the `crashtrail trail` commands: a trail file in any form, or standard input, read whole.
package struct TrailInput: Sendable {
    /// How messages name it: the path, or `standard input`.
    package let name: String
    package let bytes: [UInt8]

    /// Reads `file`, or standard input when it is nil or `-`.
    /// - Throws: ``TrailFileError`` naming the file.
    package static func read(_ file: String?) throws -> TrailInput {
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
    package func decode(with codec: TrailCodec) throws -> Trail {
        try naming { () throws(TrailCodecError) in try codec.decode(bytes) }
    }

    /// Runs `body`, naming the input in a codec error it throws.
    /// - Throws: ``TrailFileError``.
    package func naming<T>(_ body: () throws(TrailCodecError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw TrailFileError(.undecodable, name, error.description, cause: error)
        }
    }
}

/// A trail input that could not be read or decoded, named by its file.
package struct TrailFileError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    package struct Code: ErrorCode {
        package let name: String
        package init(name: String) { self.name = name }

        /// The file does not exist or cannot be read.
        package static let unreadable = Code(name: "unreadable")
        /// The file is not a trail in any form.
        package static let undecodable = Code(name: "undecodable")
    }

    package var code: Code
    /// The file, or `standard input`.
    package var file: String
    package var message: String
    package var cause: (any Error & Sendable)?

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - file: the file, or `standard input`.
    ///   - message: what is wrong with it.
    ///   - cause: the decoder's error, when it refused the file.
    package init(_ code: Code, _ file: String, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.file = file
        self.message = message
        self.cause = cause
    }

    /// The file.
    package var location: String? { file }
}
