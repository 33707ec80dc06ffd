/// Safe text for shell scripts and source comments.
enum ShellQuoting {
    /// `text` in single quotes, each `'` written as `'\''`, so bash takes it literally.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// `text` safe on one comment line: control characters (a newline would end the comment) become `?`.
    static func commentSafe(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }
}
