import ArgumentParser

/// `spotcheck diff` (being built; see the issue that owns it).
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "diff", abstract: "Not built yet.")

    func run() async throws {
        throw ValidationError("spotcheck diff is not built yet")
    }
}
