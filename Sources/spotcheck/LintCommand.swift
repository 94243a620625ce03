import ArgumentParser
import ContractKit
import Foundation

/// `spotcheck lint [DIR]`: checks a contracts folder and prints every problem as `file:pointer: message`.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check contract files: JSON syntax, keys, ids, $refs, schemas and examples.",
        discussion: "Prints one `file:pointer: message` line per problem. Exit 0 when clean, 2 on problems."
    )

    @Argument(help: "The contracts folder (default: contracts/ in the working directory).")
    var directory: String = "contracts"

    func run() throws {
        try Self.execute(directory: directory).finish()
    }

    /// Lints `directory` and says what to print and how to exit.
    static func execute(directory: String) -> CommandOutcome {
        let problems = ContractSet.lint(directory: URL(fileURLWithPath: directory))
        guard problems.isEmpty else { return CommandOutcome(output: LintPrinter.render(problems), exitCode: 2) }
        let count = (try? ContractSet.load(from: URL(fileURLWithPath: directory)).contracts.count) ?? 0
        return CommandOutcome(output: "\(directory): \(count) contract\(count == 1 ? "" : "s"), no problems\n", exitCode: 0)
    }
}
