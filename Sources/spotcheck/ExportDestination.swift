import ContractKit
import ContractModel
import MockCommands
import Foundation

/// What every `export` format shares: the contracts it reads, and standard output or `--out FILE` for the document.
struct ExportDestination {
    /// The contracts folder given on the command line.
    var contracts: String
    /// The file to write, or nil for standard output.
    var out: String?

    /// One format's rendering of the contracts.
    struct Rendered {
        /// The document itself.
        var document: String
        /// What `wrote FILE: ...` says about it.
        var summary: String
        /// Warnings for standard error (what the format could not carry).
        var diagnostics: String = ""
    }

    /// Loads the contracts, renders them, and prints the document or writes it to `out`; exit 2 for unusable contracts or an unwritable file.
    func export(_ render: (ContractSet) -> Rendered) -> CommandOutcome {
        let set: ContractSet
        do {
            set = try ContractSet.load(from: URL(fileURLWithPath: contracts))
        } catch {
            return CommandOutcome(output: "spotcheck export: " + error.description + "\n", exitCode: 2)
        }
        let rendered = render(set)
        guard let out else { return CommandOutcome(output: rendered.document, exitCode: 0, diagnostics: rendered.diagnostics) }
        do {
            try Data(rendered.document.utf8).write(to: URL(fileURLWithPath: out))
        } catch {
            return CommandOutcome(output: "spotcheck export: cannot write \(out): \(FileErrorText.reason(error))\n", exitCode: 2)
        }
        return CommandOutcome(output: "wrote \(out): \(rendered.summary)\n", exitCode: 0, diagnostics: rendered.diagnostics)
    }
}
