import ArgumentParser

/// `spotcheck import`: bring traffic saved by other tools into contracts and scenarios.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import traffic saved by other tools, or OpenAPI documents as a contract folder.",
        subcommands: [ImportHARCommand.self, ImportOpenAPICommand.self]
    )
}
