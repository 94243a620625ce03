import ContractKit
import Foundation

/// What every `export` format shares: the contracts it reads, and standard output or `--out FILE` for the document.
struct ExportDestination {
    /// The contracts folder given on the command line.
    var contracts: String
    /// The file to write, or nil for standard output.
    var out: String?

    /// The loaded contracts, or the exit-2 outcome that says why they cannot be used.
    func loadContracts() -> Result<ContractSet, CommandFailure> {
        do {
            return .success(try ContractSet.load(from: URL(fileURLWithPath: contracts)))
        } catch {
            return .failure(CommandFailure(outcome: CommandOutcome(output: "spotcheck export: " + error.description + "\n", exitCode: 2)))
        }
    }

    /// Prints `document`, or writes it to `out` and prints `summary`; `diagnostics` go to standard error either way.
    func deliver(_ document: String, summary: @autoclosure () -> String, diagnostics: String = "") -> CommandOutcome {
        guard let out else { return CommandOutcome(output: document, exitCode: 0, diagnostics: diagnostics) }
        do {
            try Data(document.utf8).write(to: URL(fileURLWithPath: out))
        } catch {
            return CommandOutcome(output: "spotcheck export: cannot write \(out): \(error.localizedDescription)\n", exitCode: 2)
        }
        return CommandOutcome(output: "wrote \(out): \(summary())\n", exitCode: 0, diagnostics: diagnostics)
    }
}
