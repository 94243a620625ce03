import ArgumentParser

/// The `spotcheck` command line: contract testing and a mock backend for the PetSpot API.
@main
struct SpotCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spotcheck",
        abstract: "Contract-testing harness and mock backend for the PetSpot announcement API.",
        subcommands: [
            RunCommand.self, ServeCommand.self, ProxyCommand.self, LintCommand.self,
            VerifyCommand.self, DiffCommand.self, ExportCommand.self,
        ]
    )
}
