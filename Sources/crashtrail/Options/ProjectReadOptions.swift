import ArgumentParser

/// `--project`: the one project whose crashes a reading command shows (SPEC section 19).
struct ProjectReadOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only the crashes of this project (its ID or name; `crashtrail project list` lists them). Every project's by default.",
            valueName: "project"))
    var project: String?
}
