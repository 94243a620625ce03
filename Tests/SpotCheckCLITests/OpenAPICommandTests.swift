import ContractKit
import Foundation
import Testing

@testable import MockCommands
@testable import spotcheck

/// OpenAPI documents through the commands: import writes a lint-clean folder all at once, lint --strict fails on
/// warnings, and a mock served from the exported document answers exactly like one served from the folder.
@Suite(.serialized) struct OpenAPICommandTests {
    static let fixtures = RunCommandTests.repository.appendingPathComponent("Tests/ContractKitTests/Fixtures/openapi")

    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    /// `version`'s folder exported as an OpenAPI document in a temporary file.
    static func exported(_ version: String) throws -> URL {
        let folder = URL(fileURLWithPath: RunCommandTests.contracts).appendingPathComponent(version)
        let file = temporary("exported").appendingPathExtension("json")
        try OpenAPIExporter(contracts: try ContractSet.load(from: folder)).render().write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func importWritesALintCleanFolderAllAtOnce() throws {
        let into = Self.temporary("imported")
        defer { try? FileManager.default.removeItem(at: into) }
        let api = Self.fixtures.appendingPathComponent("shelter-30/api.yaml").path
        let outcome = ImportOpenAPICommand.execute(files: [api], into: into.path)
        #expect(outcome.exitCode == 0, "\(outcome.output)")
        #expect(outcome.diagnostics.contains("warning:"))  // the query API key
        #expect(FileManager.default.fileExists(atPath: into.appendingPathComponent("register-intake.json").path))
        #expect(FileManager.default.fileExists(atPath: into.appendingPathComponent("schemas/NewIntake.json").path))
        let lint = LintCommand.execute(directory: into.path)
        #expect(lint.exitCode == 0, "\(lint.output)")
        // A folder in use is refused, and left as it was.
        let before = try FileManager.default.contentsOfDirectory(atPath: into.path).sorted()
        let again = ImportOpenAPICommand.execute(files: [Self.fixtures.appendingPathComponent("kennel-31.json").path], into: into.path)
        #expect(again.exitCode == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: into.path).sorted() == before)
        // A document that does not load writes nothing.
        let broken = Self.temporary("broken")
        let failed = ImportOpenAPICommand.execute(files: [Self.fixtures.appendingPathComponent("syntax-error.yaml").path], into: broken.path)
        #expect(failed.exitCode == 2)
        #expect(failed.output.contains("syntax-error.yaml:6:"))
        #expect(!FileManager.default.fileExists(atPath: broken.path))
        let parent = try FileManager.default.contentsOfDirectory(atPath: broken.deletingLastPathComponent().path)
        #expect(!parent.contains { $0.contains("spotcheck-import") && $0.contains(broken.lastPathComponent) })
    }

    @Test func lintPrintsADocumentsWarningsAndFailsOnThemUnderStrict() {
        let file = Self.fixtures.appendingPathComponent("contradictions.yaml").path
        let relaxed = LintCommand.execute(directory: file)
        #expect(relaxed.exitCode == 0, "\(relaxed.output)")
        #expect(relaxed.output.contains("warning: "))
        #expect(relaxed.output.contains("1 contract, no problems"))
        let strict = LintCommand.execute(directory: file, strict: true)
        #expect(strict.exitCode == 2)
        #expect(strict.output.contains("contradictions.yaml:"))
    }

    @Test func theScenarioLibraryPassesAgainstTheExportedDocument() async throws {
        let document = try Self.exported("")
        defer { try? FileManager.default.removeItem(at: document) }
        let command = try RunCommand.parse(["--scenarios", RunCommandTests.scenarios, "--contracts", document.path])
        let lines = RunCommandTests.Lines()
        let code = await command.execute(print: { lines.add($0) })
        #expect(code == 0, "\(lines.text.suffix(3000))")
    }

    /// `verify --contracts exported` against `serve` of the folder, and the folder against `serve` of the document.
    @Test(arguments: ["", "versions/2026-01-12"])
    func verifyIsCleanBothWays(version: String) async throws {
        let document = try Self.exported(version)
        defer { try? FileManager.default.removeItem(at: document) }
        let folder = URL(fileURLWithPath: RunCommandTests.contracts).appendingPathComponent(version).path
        for (served, verified) in [(folder, document.path), (document.path, folder)] {
            let serve = try ServeCommand.parse(["--contracts", served, "--port", "0", "--quiet", "--seed", "7"])
            let mock = try await serve.start().get()
            let result: (Int32, String)
            do {
                result = try await VerifyVerdictTests.verify(contracts: verified, target: mock.baseURL, cases: 150)
            } catch {
                try await mock.shutdown()
                throw error
            }
            try await mock.shutdown()
            #expect(result.0 == 0, "serve \(served), verify \(verified): \(result.1.suffix(3000))")
        }
    }
}
