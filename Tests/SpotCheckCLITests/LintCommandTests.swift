import ArgumentParser
import Foundation
import Testing
@testable import MockCommands
@testable import spotcheck

@Suite struct LintCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func bundledContractsAreClean() {
        let outcome = LintCommand.execute(directory: Self.repository.appendingPathComponent("contracts").path)
        #expect(outcome.exitCode == 0)
        #expect(outcome.output.hasSuffix("8 contracts, no problems\n"))
        #expect(outcome.output.contains("known-defects.json: 5 known server defects, each with a reason"))
    }

    @Test func brokenContractsExitTwoWithOneLinePerProblem() {
        let folder = Self.repository.appendingPathComponent("Tests/ContractKitTests/Fixtures/broken-contracts").path
        let outcome = LintCommand.execute(directory: folder)
        #expect(outcome.exitCode == 2)
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("syntax-error.json:5:1: invalid JSON: unexpected '}'; expected a member name in double quotes") })
        #expect(lines.contains { $0.hasSuffix("bad-ref.json:/responses/0/body/$ref: the reference schemas/Missing.json does not resolve") })
        #expect(lines.contains { $0.contains("duplicate-id-b.json:/id: the id sameId is already used by ") && $0.hasSuffix("duplicate-id-a.json") })
        #expect(lines.last?.hasSuffix("problems in 8 files") == true)
    }

    @Test func defaultsToTheContractsFolderOfTheWorkingDirectory() throws {
        let command = try LintCommand.parse([])
        #expect(command.directory == "contracts")
    }

    @Test func missingFolderExitsTwo() {
        #expect(LintCommand.execute(directory: "/nonexistent/contracts").exitCode == 2)
    }
}
