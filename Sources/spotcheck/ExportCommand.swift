import ArgumentParser

/// `spotcheck export`: translations of the contracts for other tools.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the contracts in another format.",
        subcommands: [ExportOpenAPICommand.self, ExportPactCommand.self]
    )
}
