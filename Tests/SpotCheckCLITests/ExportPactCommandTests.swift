import ArgumentParser
import ContractKit
import Foundation
import Testing
@testable import MockCommands
@testable import spotcheck

@Suite struct ExportPactCommandTests {
    static let contracts = ExportCommandTests.repository.appendingPathComponent("contracts").path

    @Test func writesThePactToOutAndReportsEverySkippedExample() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("pact-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: out) }
        let outcome = try ExportPactCommand.parse(["--out", out.path, "--contracts", Self.contracts]).execute()
        #expect(outcome.exitCode == 0)
        #expect(outcome.output == "wrote \(out.path): Pact v3, 50 interactions, 16 examples skipped\n")
        let skippedLines = outcome.diagnostics.split(separator: "\n")
        #expect(skippedLines.count == 16)
        #expect(skippedLines.contains { $0.hasPrefix("spotcheck export: skipped uploadPhoto: photo stored: ") && $0.contains("multipart/form-data") })

        let pact = try JSONValue(parsing: Data(contentsOf: out))
        let interactions = try #require(pact["interactions"]?.arrayValue)
        #expect(interactions.count == 50)
        let get = try #require(interactions.first { $0["description"] == "getAnnouncement: with photo" })
        #expect(get["request"]?["method"] == "GET")
        #expect(get["request"]?["path"] == "/api/v1/announcements/3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c")
        #expect(get["response"]?["status"] == 200)
        #expect(get["response"]?["body"]?["petName"] == "Rex")
        #expect(get["response"]?["body"]?["photoUrl"] == "/images/3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c.jpeg")
        #expect(interactions.contains { $0["description"] == "createAnnouncement: minimal report created" && $0["response"]?["status"] == 201 })
    }

    @Test func printsToStandardOutputWithChosenNames() throws {
        let outcome = try ExportPactCommand.parse(["--contracts", Self.contracts, "--consumer", "Web", "--provider", "Mock"]).execute()
        #expect(outcome.exitCode == 0)
        let pact = try JSONValue(parsing: outcome.output)
        #expect(pact["consumer"] == ["name": "Web"])
        #expect(pact["provider"] == ["name": "Mock"])
        #expect(pact["metadata"]?["pactSpecification"]?["version"] == "3.0.0")
        #expect(outcome.diagnostics.contains("skipped getImage: jpeg photo"))
    }

    @Test func brokenContractsExitTwo() throws {
        let broken = ExportCommandTests.repository.appendingPathComponent("Tests/ContractKitTests/Fixtures/broken-contracts")
        let outcome = try ExportPactCommand.parse(["--contracts", broken.path]).execute()
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.contains("bad-ref.json:/responses/0/body/$ref"))
    }

    @Test func unwritableOutExitsTwo() throws {
        let outcome = try ExportPactCommand.parse(["--contracts", Self.contracts, "--out", "/nonexistent-dir/x/pact.json"]).execute()
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.hasPrefix("spotcheck export: cannot write /nonexistent-dir/x/pact.json"))
    }

    @Test func pactIsASubcommandOfExportAndOutputIsAnAlias() throws {
        let parsed = try SpotCheck.parseAsRoot(["export", "pact", "--output", "p.json"])
        #expect((parsed as? ExportPactCommand)?.out == "p.json")
        #expect((parsed as? ExportPactCommand)?.consumer == "PetSpot iOS")
        #expect((parsed as? ExportPactCommand)?.provider == "PetSpot backend")
    }
}
