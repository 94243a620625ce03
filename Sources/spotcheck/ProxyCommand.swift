import ArgumentParser

/// `spotcheck proxy` (being built; see the issue that owns it).
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "proxy", abstract: "Not built yet.")

    func run() async throws {
        throw ValidationError("spotcheck proxy is not built yet")
    }
}
