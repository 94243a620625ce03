import ArgumentParser

/// `spotcheck export` (being built; see the issue that owns it).
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Not built yet.")

    func run() async throws {
        throw ValidationError("spotcheck export is not built yet")
    }
}
