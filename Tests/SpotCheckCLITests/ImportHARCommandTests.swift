import Foundation
import Testing
@testable import MockCommands
@testable import spotcheck

/// `spotcheck import har`: what it prints, where it writes and how it exits.
@Suite struct ImportHARCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func project() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("import-har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("scenarios"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("contracts"), to: root.appendingPathComponent("contracts"))
        return root
    }

    @Test func importsChromesHARAndListsWhatIsStillToWrite() throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(at: root) }
        let outcome = ImportHARCommand.execute(file: Self.repository.appendingPathComponent("tests/har/chrome-dashboard.har").path,
                                               into: root.path, keepSecrets: false)
        #expect(outcome.exitCode == 0)
        #expect(outcome.output.contains("4 exchanges matched a contract, 4 did not"))
        #expect(outcome.output.contains("merged listAnnouncements 200: recorded 200\n"))
        #expect(outcome.output.contains("wrote \(root.path)/scenarios/har-chrome-dashboard.json\n"))
        #expect(outcome.output.contains("/steps/1/todo: expectation still missing: the session met getAnnouncement lost its connection"))
        #expect(try SpotCheck.parseAsRoot(["import", "har", "x.har", "--into", "p", "--keep-secrets"]) is ImportHARCommand)
    }

    @Test func aMissingFileOrContractsFolderExitsTwoAndWritesNothing() throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = ImportHARCommand.execute(file: root.appendingPathComponent("none.har").path, into: root.path, keepSecrets: false)
        #expect(missing.exitCode == 2)
        #expect(missing.output.hasPrefix("spotcheck import har: cannot read \(root.path)/none.har"))
        let noContracts = ImportHARCommand.execute(file: "x.har", into: root.appendingPathComponent("scenarios").path, keepSecrets: false)
        #expect(noContracts.exitCode == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("scenarios").path).isEmpty)
    }
}
