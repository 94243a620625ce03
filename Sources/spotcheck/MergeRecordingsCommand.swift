import ArgumentParser
import MockCommands
import ContractKit
import ContractModel
import Foundation

/// `spotcheck merge-recordings DIR --into contracts`: adds recorded answers to the contracts as named examples.
struct MergeRecordingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-recordings",
        abstract: "Merge recorded exchanges (spotcheck proxy --record DIR) into the contracts as response examples.",
        discussion: """
            Each recorded example is appended to the documented answer with the same status and error code (its name made
            unique). Examples whose exchange broke the contract, and answers the contracts do not document, are skipped and
            listed. The contracts are rewritten only if they still lint clean. Exit 0 merged, 2 on lint problems or bad folders.
            """
    )

    @Argument(help: "The recording folder.")
    var recordings: String

    @Option(help: "The contracts folder to merge into.")
    var into: String = "contracts"

    @Option(name: .customLong("only"), help: ArgumentHelp("Merge only these answers: contract, contract:status or contract:status:CODE (repeatable).", valueName: "selector"))
    var only: [String] = []

    func run() throws {
        try Self.execute(recordings: recordings, into: into, only: only).finish()
    }

    /// Merges and says what to print and how to exit.
    static func execute(recordings: String, into: String, only: [String]) -> CommandOutcome {
        do {
            let outcome = try RecordingMerge.merge(recordings: URL(fileURLWithPath: recordings), into: URL(fileURLWithPath: into), selectors: only)
            var output = outcome.merged.map { "merged \($0)\n" }.joined() + outcome.skipped.map { "skipped \($0)\n" }.joined()
            output += "\(outcome.merged.count) example\(outcome.merged.count == 1 ? "" : "s") merged into \(into), \(outcome.skipped.count) skipped\n"
            return CommandOutcome(output: output, exitCode: 0)
        } catch {
            return CommandOutcome(output: "spotcheck merge-recordings: \(error.description)\n", exitCode: 2)
        }
    }
}

extension LintCommand {
    /// Lints a recording folder: the loader's problems plus one per recorded violation.
    static func lintRecordings(_ directory: String) -> CommandOutcome {
        let problems = RecordingMerge.lint(directory: URL(fileURLWithPath: directory))
        guard problems.isEmpty else { return CommandOutcome(output: LintPrinter.render(problems), exitCode: 2) }
        return CommandOutcome(output: "\(directory): recordings, no problems\n", exitCode: 0)
    }
}
