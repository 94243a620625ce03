import ArgumentParser
import Foundation

/// The `main` both executables share, so `spotcheck` and `spotcheck-serve` end the same way.
public enum CommandLineMain {
    /// Parses the arguments as `Root`, runs the command, and exits with design.md's codes (bad usage is 2).
    public static func run<Root: ParsableCommand>(_ root: Root.Type) async {
        do {
            var command = try root.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let status = exitStatus(for: error, root: root)
            guard status == 2 else { root.exit(withError: error) }
            FileHandle.standardError.write(Data((root.fullMessage(for: error) + "\n").utf8))
            Foundation.exit(status)
        }
    }

    /// The process exit code for an error: ArgumentParser's own, except that bad usage (its 64) becomes 2.
    public static func exitStatus<Root: ParsableCommand>(for error: any Error, root: Root.Type) -> Int32 {
        let code = root.exitCode(for: error)
        return code == .validationFailure ? 2 : code.rawValue
    }
}
