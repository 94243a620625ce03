import ArgumentParser
import MockCommands

/// `spotcheck-serve`: the mock backend and the fault proxy alone, for long-running use.
///
/// It leaves out the scenario engine and the reference client, and with them FoundationNetworking and the 30-odd
/// shared libraries libcurl loads: a smaller resident set and a quicker start than `spotcheck serve` (issue 16).
@main
struct SpotCheckServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spotcheck-serve",
        abstract: "The PetSpot mock backend (the default) or the fault proxy, without the rest of spotcheck.",
        discussion: "`spotcheck-serve [options]` is `spotcheck serve [options]`; `spotcheck-serve proxy ...` is `spotcheck proxy ...`.",
        subcommands: [ServeCommand.self, ProxyCommand.self],
        defaultSubcommand: ServeCommand.self
    )

    /// Runs the command line with the same exit codes as `spotcheck`.
    static func main() async {
        await CommandLineMain.run(Self.self)
    }
}
