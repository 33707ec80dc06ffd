import ArgumentParser

// Replaced by the issue that builds `crashtrail list`.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Not built yet.")

    func run() async throws {
        throw ValidationError("crashtrail list is not built yet")
    }
}
