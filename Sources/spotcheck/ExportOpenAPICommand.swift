import ArgumentParser
import MockCommands
import ContractKit
import ContractModel
import Foundation

/// `spotcheck export openapi [--out FILE]`: the contracts as an OpenAPI 3.1 document.
struct ExportOpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Write the contracts as an OpenAPI 3.1 JSON document (stdout, or --out FILE)."
    )

    @Option(help: "Write the document to this file instead of standard output.")
    var out: String?

    @Option(help: "The contracts folder.")
    var contracts: String = "contracts"

    @Option(name: .customLong("server-url"), help: "The server URL listed in the document.")
    var serverURL: String = "http://localhost:3000"

    func run() throws {
        try execute().finish()
    }

    /// Loads the contracts, exports them and says what to print and how to exit.
    func execute() -> CommandOutcome {
        ExportDestination(contracts: contracts, out: out).export { set in
            var exporter = OpenAPIExporter(contracts: set)
            exporter.serverURL = serverURL
            return .init(document: exporter.render(), summary: "OpenAPI 3.1, \(set.contracts.count) operations, \(set.schemas.count) schemas")
        }
    }
}
