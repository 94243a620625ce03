import ArgumentParser
import ContractKit
import Foundation
import Testing
@testable import MockCommands
@testable import spotcheck

@Suite struct DiffCommandTests {
    static let contracts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("contracts")

    /// A temporary folder holding a copy of the bundled contracts at `<root>/contracts`.
    struct Workspace {
        let root: URL
        var contracts: URL { root.appendingPathComponent("contracts") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("diff-cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: DiffCommandTests.contracts, to: contracts)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        /// Switches uploadPhoto and createAnnouncement to Bearer tokens, the PetSpot API's later change.
        func moveToBearer() throws {
            for file in ["upload-photo.json", "create-announcement.json"] {
                let url = contracts.appendingPathComponent(file)
                guard case .object(var contract) = try JSONValue(parsing: Data(contentsOf: url)),
                    case .object(var request)? = contract["request"]
                else { throw CocoaError(.fileReadCorruptFile) }
                request["auth"] = ["scheme": "bearer", "header": "Authorization", "credentials": "{token}"]
                contract["request"] = .object(request)
                // The upload's x-state opens the record with the Basic password, which a bearer scheme no longer sends.
                contract["x-state"] = nil
                try JSONValue.object(contract).data(pretty: true).write(to: url)
            }
        }

        func git(_ arguments: [String]) throws {
            _ = try GitRevisionFolder.run(["git", "-C", root.path, "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments)
        }
    }

    @Test func bearerMoveExitsOneAndNamesBothContracts() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.moveToBearer()
        let command = try DiffCommand.parse([Self.contracts.path, workspace.contracts.path])
        let outcome = command.execute()
        #expect(outcome.exitCode == 1)
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("BREAKING   uploadPhoto ") && $0.hasSuffix("upload-photo.json:/request/auth/scheme: the auth scheme changed from Basic to Bearer") })
        #expect(lines.contains { $0.hasPrefix("BREAKING   createAnnouncement ") && $0.hasSuffix(":/request/auth: the endpoint now requires Bearer authentication") })
        #expect(lines.last == "2 breaking, 0 compatible changes; existing clients may break")
    }

    @Test func allowBreakingExitsZero() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.moveToBearer()
        let outcome = try DiffCommand.parse([Self.contracts.path, workspace.contracts.path, "--allow-breaking"]).execute()
        #expect(outcome.exitCode == 0)
        #expect(outcome.output.contains("(breaking changes allowed by --allow-breaking)"))
    }

    @Test func jsonOutputListsEachChange() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.moveToBearer()
        let outcome = try DiffCommand.parse([Self.contracts.path, workspace.contracts.path, "--json"]).execute()
        #expect(outcome.exitCode == 1)
        let document = try JSONValue(parsing: outcome.output)
        #expect(document["breaking"] == 2)
        #expect(document["compatible"] == 0)
        let first = document["changes"]?.arrayValue?.first
        #expect(first?["severity"] == "breaking")
        #expect(first?["kind"] == "authAdded")
        #expect(first?["contract"] == "createAnnouncement")
        #expect(first?["pointer"] == "/request/auth")
    }

    @Test func identicalFoldersExitZero() throws {
        let outcome = try DiffCommand.parse([Self.contracts.path, Self.contracts.path]).execute()
        #expect(outcome == CommandOutcome(output: "Comparing \(Self.contracts.path) → \(Self.contracts.path)\nno changes\n", exitCode: 0))
    }

    @Test func baseRefComparesAgainstAGitRevision() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.git(["init", "-q"])
        try workspace.git(["add", "contracts"])
        try workspace.git(["commit", "-q", "-m", "contracts v1"])
        try workspace.moveToBearer()
        let outcome = try DiffCommand.parse(["--base-ref", "HEAD", workspace.contracts.path]).execute()
        #expect(outcome.exitCode == 1)
        #expect(outcome.output.hasPrefix("Comparing \(workspace.contracts.path) at HEAD → \(workspace.contracts.path)\n"))
        #expect(outcome.output.contains("the auth scheme changed from Basic to Bearer"))
        try FileManager.default.removeItem(at: workspace.contracts.appendingPathComponent("health.json"))
        let removed = try DiffCommand.parse(["--base-ref", "HEAD", workspace.contracts.path]).execute()
        #expect(removed.output.contains("BREAKING   health HEAD:\(workspace.contracts.path)/health.json:(root): the endpoint GET /api/health was removed"))
        let unknown = try DiffCommand.parse(["--base-ref", "no-such-revision", workspace.contracts.path]).execute()
        #expect(unknown.exitCode == 2)
        #expect(unknown.output.contains("git"))
    }

    @Test func brokenContractsExitTwo() throws {
        let broken = Self.contracts.deletingLastPathComponent().appendingPathComponent("Tests/ContractKitTests/Fixtures/broken-contracts")
        let outcome = try DiffCommand.parse([Self.contracts.path, broken.path]).execute()
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.contains("syntax-error.json:5:1:"))
    }

    @Test func usageNeedsTwoFoldersOrABaseRef() {
        #expect(throws: (any Error).self) { try DiffCommand.parse(["only-one"]) }
        #expect(throws: (any Error).self) { try DiffCommand.parse(["a", "b", "--base-ref", "HEAD"]) }
        #expect(throws: Never.self) { try DiffCommand.parse(["--base-ref", "HEAD"]) }
    }
}
