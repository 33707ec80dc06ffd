import ArgumentParser

// Replaced by the issue that builds `crashtrail ingest`.
struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ingest", abstract: "Not built yet.")

    func run() async throws {
        throw ValidationError("crashtrail ingest is not built yet")
    }
}
