import ArgumentParser
import MockCommands
import ContractKit
import ContractModel
import Foundation

/// `spotcheck export pact [--out FILE]`: the contracts' examples as a Pact specification v3 file.
struct ExportPactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pact",
        abstract: "Write the contracts' examples as a Pact v3 JSON file (stdout, or --out FILE).",
        discussion: "One interaction per named response example; examples Pact v3 cannot carry are listed on standard error."
    )

    @Option(name: [.customLong("out"), .customLong("output")], help: "Write the pact to this file instead of standard output.")
    var out: String?

    @Option(help: "The contracts folder.")
    var contracts: String = "contracts"

    @Option(help: "The pact's consumer name.")
    var consumer: String = "PetSpot iOS"

    @Option(help: "The pact's provider name.")
    var provider: String = "PetSpot backend"

    func run() throws {
        try execute().finish()
    }

    /// Loads the contracts, exports them and says what to print and how to exit.
    func execute() -> CommandOutcome {
        ExportDestination(contracts: contracts, out: out).export { set in
            var exporter = PactExporter(contracts: set)
            exporter.consumer = consumer
            exporter.provider = provider
            let export = exporter.export()
            return .init(
                document: export.text, summary: "Pact v3, \(export.interactionCount) interactions, \(export.skipped.count) examples skipped",
                diagnostics: export.skipped.map { "spotcheck export: skipped \($0)\n" }.joined())
        }
    }
}
