import ArgumentParser

/// `spotcheck run` (being built; see the issue that owns it).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Not built yet.")

    func run() async throws {
        throw ValidationError("spotcheck run is not built yet")
    }
}
