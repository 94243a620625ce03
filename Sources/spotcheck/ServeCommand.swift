import ArgumentParser

/// `spotcheck serve` (being built; see the issue that owns it).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Not built yet.")

    func run() async throws {
        throw ValidationError("spotcheck serve is not built yet")
    }
}
