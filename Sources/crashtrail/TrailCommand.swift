import ArgumentParser

// Replaced by the issue that builds `crashtrail trail`.
struct TrailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trail", abstract: "Not built yet.")

    func run() async throws {
        throw ValidationError("crashtrail trail is not built yet")
    }
}
