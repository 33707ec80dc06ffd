import ArgumentParser

/// `--screens N`: how many screens of each path `paths` and `report` count (`--last` is its old spelling).
struct ScreensOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("How many screens to keep from the end of each path (default 5).", valueName: "n"))
    var screens: Int?

    /// The old spelling of `--screens`.
    @Option(name: .customLong("last"), help: .hidden)
    var last: Int?

    /// The count asked for, 5 by default.
    var count: Int { screens ?? last ?? 5 }

    func validate() throws {
        guard count >= 1 else {
            let name = screens == nil ? "--last" : "--screens"
            throw ValidationError("\(name) takes a number of screens, 1 or more, for example \(name) 5")
        }
    }
}
