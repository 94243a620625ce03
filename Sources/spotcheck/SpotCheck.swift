import ArgumentParser
import MockCommands

/// The `spotcheck` command line: contract testing and a mock backend for the PetSpot API.
@main
struct SpotCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spotcheck",
        abstract: "Contract-testing harness and mock backend: a contract set as the model of a server.",
        discussion: "Exit codes: 0 all passed, 1 a check failed, 2 bad usage or a bad contract or scenario file.",
        subcommands: [
            RunCommand.self, ExploreCommand.self, ServeCommand.self, ProxyCommand.self, LintCommand.self,
            VerifyCommand.self, DiffCommand.self, ExportCommand.self, MergeRecordingsCommand.self, MergeReportsCommand.self, ImportCommand.self,
        ]
    )

    /// Runs the command line, mapping usage errors to exit code 2 as design.md's conventions say.
    static func main() async {
        await CommandLineMain.run(Self.self)
    }

    /// The process exit code for an error: ArgumentParser's own, except that bad usage (its 64) becomes 2.
    static func exitStatus(for error: any Error) -> Int32 {
        CommandLineMain.exitStatus(for: error, root: Self.self)
    }
}
