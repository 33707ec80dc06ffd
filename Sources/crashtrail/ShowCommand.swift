import ArgumentParser

// Replaced by the issue that builds `crashtrail show`.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Not built yet.")

    func run() async throws {
        throw ValidationError("crashtrail show is not built yet")
    }
}
