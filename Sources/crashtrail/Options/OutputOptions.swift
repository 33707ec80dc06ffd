import ArgumentParser

/// What a command prints: text for people, or one JSON document for programs.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `--format text|json`, in every command whose output a program may read (`--json` is its old spelling).
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "The output format: text for people, or json (one canonical JSON document) for programs.")
    var format: OutputFormat = .text

    /// The old spelling of `--format json` in `ingest` and `trail inspect`.
    @Flag(name: .customLong("json"), help: .hidden)
    var legacyJSON = false

    /// Whether to print JSON.
    var isJSON: Bool { format == .json || legacyJSON }
}

/// `--quiet`: print only errors.
struct QuietOptions: ParsableArguments {
    @Flag(name: .long, help: "Print only errors: no progress line and no summary.")
    var quiet = false
}
