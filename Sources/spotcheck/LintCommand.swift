import ArgumentParser

/// `spotcheck lint` (being built; see the issue that owns it).
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lint", abstract: "Not built yet.")

    func run() async throws {
        throw ValidationError("spotcheck lint is not built yet")
    }
}
