import CrashtrailIntake
import Foundation

extension IngestOptions {
    /// What is wrong with the inputs an ingest was given, for a usage error, or nil when nothing is: an input that
    /// does not exist, standard input (`-`) given twice, a trails folder that is not a folder.
    package static func problem(inputs: [String], trailsDirectory: String?) -> String? {
        for path in inputs where path != "-" && !FileManager.default.fileExists(atPath: path) {
            return "The input \(path) does not exist."
        }
        if inputs.filter({ $0 == "-" }).count > 1 { return "Give - (standard input) at most once." }
        if let trailsDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: trailsDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
                return "The trails folder \(trailsDirectory) does not exist or is not a folder."
            }
        }
        return nil
    }
}
