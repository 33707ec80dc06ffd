import ArgumentParser

// Replaced by the issue that builds `crashtrail replay`.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replay", abstract: "Not built yet.")

    func run() async throws {
        throw ValidationError("crashtrail replay is not built yet")
    }
}
