import Foundation

/// This process's memory, from `/proc/self/status` (Linux); nil elsewhere.
enum ProcessMemory {
    /// The peak resident set size so far (`VmHWM`), in bytes.
    static var peakResident: Int? { field("VmHWM") }

    /// The current resident set size (`VmRSS`), in bytes.
    static var resident: Int? { field("VmRSS") }

    private static func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            return digits.map { $0 * 1024 }
        }
        return nil
    }
}
