import ArgumentParser

/// `spotcheck verify` (being built; see the issue that owns it).
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "verify", abstract: "Not built yet.")

    func run() async throws {
        throw ValidationError("spotcheck verify is not built yet")
    }
}
