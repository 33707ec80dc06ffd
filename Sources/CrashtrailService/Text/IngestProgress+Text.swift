import CrashtrailIntake
import Foundation

extension IngestProgress {
    /// The progress line: done/total, rate and time left (`120/400 files and lines read, 850/s, ETA 1 s`).
    package var text: String {
        var text = "\(done)"
        if let total { text += "/\(total)" }
        text += " files and lines read, \(String(format: "%.0f", rate))/s"
        if let left = estimatedSecondsLeft { text += ", ETA \(String(format: "%.0f", left.rounded(.up))) s" }
        return text
    }
}
