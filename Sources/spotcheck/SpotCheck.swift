import ArgumentParser
import Foundation

/// The `spotcheck` command line: contract testing and a mock backend for the PetSpot API.
@main
struct SpotCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spotcheck",
        abstract: "Contract-testing harness and mock backend for the PetSpot announcement API.",
        discussion: "Exit codes: 0 all passed, 1 a check failed, 2 bad usage or a bad contract or scenario file.",
        subcommands: [
            RunCommand.self, ServeCommand.self, ProxyCommand.self, LintCommand.self,
            VerifyCommand.self, DiffCommand.self, ExportCommand.self, MergeRecordingsCommand.self,
        ]
    )

    /// Runs the command line, mapping usage errors to exit code 2 as design.md's conventions say.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let status = exitStatus(for: error)
            guard status == 2 else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(status)
        }
    }

    /// The process exit code for an error: ArgumentParser's own, except that bad usage (its 64) becomes 2.
    static func exitStatus(for error: any Error) -> Int32 {
        let code = exitCode(for: error)
        return code == .validationFailure ? 2 : code.rawValue
    }
}
