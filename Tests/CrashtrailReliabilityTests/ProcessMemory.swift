import Foundation

/// This process's memory, from `/proc/self/status` (Linux); nil elsewhere.
enum ProcessMemory {
    /// The peak resident set size so far (`VmHWM`), in bytes.
    static var peakResident: Int? { field("VmHWM") }

    /// The current resident set size (`VmRSS`), in bytes.
    static var resident: Int? { field("VmRSS") }

    /// Resets the peak resident set size to the current one (writing 5 to `/proc/self/clear_refs`), so that
    /// ``peakResident`` measures from now on.
    /// - Returns: the resident set size after the reset, in bytes; nil where the peak cannot be reset.
    static func resetPeak() -> Int? {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return nil }
        defer { try? handle.close() }
        guard (try? handle.write(contentsOf: Data("5".utf8))) != nil else { return nil }
        guard let peak = peakResident, let resident, peak <= resident + (1 << 20) else { return nil }
        return resident
    }

    private static func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            return digits.map { $0 * 1024 }
        }
        return nil
    }
}
