extension CrashReport.OS {
    /// An OS as crash reports write it, `iPhone OS 17.1 (21B80)`: the name, and the version when the last word
    /// before the build starts with a digit (`iPhone OS`, `17.1`).
    package static func parsing(_ text: String?) -> CrashReport.OS {
        guard let text else { return CrashReport.OS() }
        let withoutBuild = text.split(separator: "(").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? text
        var words = withoutBuild.split(separator: " ").map(String.init)
        guard words.count > 1, let last = words.last, last.first?.isNumber == true else {
            return CrashReport.OS(name: withoutBuild, version: nil)
        }
        words.removeLast()
        return CrashReport.OS(name: words.joined(separator: " "), version: last)
    }
}
