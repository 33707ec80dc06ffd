import ArgumentParser
import CrashtrailCore
import CrashtrailEncoding
import Foundation

/// The input of `crashtrail trail` subcommands: a file or standard input, and the manifests.
struct TrailInputOptions: ParsableArguments {
    @Argument(help: "The trail file in any form (JSON, ct1: text, split keys, binary). Absent or - reads standard input.")
    var file: String?

    @Option(
        name: .customLong("manifest"),
        help:
            "An app's route manifest (YAML or JSON), or a folder of them. Repeat for several apps: encoding uses the one whose app is the trail's bundle ID, decoding the one the trail names."
    )
    var manifests: [String] = []

    /// How the input is named in messages.
    var inputName: String { file == nil || file == "-" ? "standard input" : file ?? "" }

    /// The input's bytes.
    /// - Throws: `TrailFileError` naming the file.
    func readInput() throws -> [UInt8] {
        guard let file, file != "-" else {
            return Array(FileHandle.standardInput.readDataToEndOfFile())
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            let exists = FileManager.default.fileExists(atPath: file)
            throw TrailFileError(file, exists ? "cannot read the file; check its permissions" : "no such file")
        }
        return Array(data)
    }

    /// A codec that knows the manifests.
    func codec() throws -> TrailCodec {
        TrailCodec(manifests: try ManifestFiles.load(manifests))
    }

    /// Decodes the input in whatever form it is.
    /// - Throws: `TrailFileError` naming the file and the codec's reason.
    func decode(with codec: TrailCodec) throws -> Trail {
        let bytes = try readInput()
        do {
            return try codec.decode(bytes)
        } catch {
            throw TrailFileError(inputName, error.description)
        }
    }
}

/// A trail input that could not be read or decoded, named by its file.
struct TrailFileError: Error, CustomStringConvertible {
    let file: String
    let message: String

    init(_ file: String, _ message: String) {
        self.file = file
        self.message = message
    }

    var description: String { "\(file): \(message)" }
}

/// Writes bytes to standard output as they are.
func writeStandardOutput(_ bytes: [UInt8]) {
    FileHandle.standardOutput.write(Data(bytes))
}
