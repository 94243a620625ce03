import ArgumentParser
import ContractKit
import Foundation
import Testing
@testable import MockCommands
@testable import spotcheck

@Suite struct ExportCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func writesTheDocumentToOut() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: out) }
        let command = try ExportOpenAPICommand.parse(["--out", out.path, "--contracts", Self.repository.appendingPathComponent("contracts").path])
        let outcome = command.execute()
        #expect(outcome.exitCode == 0)
        #expect(outcome.output == "wrote \(out.path): OpenAPI 3.1, 8 operations, 6 schemas\n")
        let document = try JSONValue(parsing: Data(contentsOf: out))
        #expect(document["openapi"] == "3.1.0")
        #expect(document["paths"]?["/api/v1/announcements/{id}/photos"]?["post"]?["operationId"] == "uploadPhoto")
    }

    @Test func printsToStandardOutputWithoutOut() throws {
        let command = try ExportOpenAPICommand.parse(["--contracts", Self.repository.appendingPathComponent("contracts").path, "--server-url", "http://127.0.0.1:9"])
        let outcome = command.execute()
        #expect(outcome.exitCode == 0)
        #expect(try JSONValue(parsing: outcome.output)["servers"] == [["url": "http://127.0.0.1:9"]])
    }

    @Test func brokenContractsExitTwo() throws {
        let broken = Self.repository.appendingPathComponent("Tests/ContractKitTests/Fixtures/broken-contracts")
        let outcome = try ExportOpenAPICommand.parse(["--contracts", broken.path]).execute()
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.contains("bad-ref.json:/responses/0/body/$ref"))
    }

    @Test func exportIsASubcommandOfExport() throws {
        let parsed = try SpotCheck.parseAsRoot(["export", "openapi", "--out", "x.json"])
        #expect((parsed as? ExportOpenAPICommand)?.out == "x.json")
    }
}
