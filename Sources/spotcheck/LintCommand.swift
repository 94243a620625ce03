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
        let problems = ContractSet.lint(directory: URL(fileURLWithPath: directory))
        guard problems.isEmpty else {
            print(LintPrinter.render(problems), terminator: "")
            throw ExitCode(2)
        }
        print("\(directory): contracts are clean")
    }
}
