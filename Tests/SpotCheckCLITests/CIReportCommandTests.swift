import ArgumentParser
import CIReports
import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing

@testable import MockCommands
@testable import spotcheck

/// `--ctrf`, `--summary`, `--sarif` and GitHub annotations from real commands: files written, the line at fault found,
/// the published schemas satisfied, `GITHUB_STEP_SUMMARY` appended to.
@Suite struct CIReportCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let broken = repository.appendingPathComponent("Tests/ContractKitTests/Fixtures/broken-contracts")

    /// A temporary folder, removed by `remove()`.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ci-reports-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    static func json(_ path: String) throws -> JSONValue { try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: path))) }

    static func violations(_ path: String, schema: String) throws -> [SchemaViolation] {
        let schema = try json(repository.appendingPathComponent("Tests/CIReportsTests/Fixtures/report-schemas/\(schema)").path)
        return SchemaValidator().validate(try json(path), against: schema)
    }

    /// The 1-based line of the first line of `file` containing `text`.
    static func line(of text: String, in file: URL) throws -> Int {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains(text) }) + 1
    }

    @Test func lintWritesEveryFormatAndAnnotatesTheLineOfEachProblem() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let request = CIReportRequest(ctrf: folder.path("lint.ctrf.json"), summary: folder.path("summary.md"), sarif: folder.path("lint.sarif"),
                                      environment: ["GITHUB_ACTIONS": "true"])
        let outcome = LintCommand.execute(directory: Self.broken.path, ci: request)
        #expect(outcome.exitCode == 2)
        let refLine = try Self.line(of: "\"$ref\": \"schemas/Missing.json\"", in: Self.broken.appendingPathComponent("bad-ref.json"))
        let annotation = try #require(outcome.output.split(separator: "\n").first { $0.contains("bad-ref.json,line=") })
        #expect(annotation.hasPrefix("::error file="))
        #expect(annotation.contains("bad-ref.json,line=\(refLine),col=") && annotation.hasSuffix("::the reference schemas/Missing.json does not resolve"))
        // A syntax error keeps the parser's own line and column.
        #expect(outcome.output.contains("syntax-error.json,line=5,col=1,title="))

        #expect(try Self.violations(folder.path("lint.ctrf.json"), schema: "ctrf.schema.json").isEmpty)
        #expect(try Self.violations(folder.path("lint.sarif"), schema: "sarif-schema-2.1.0.json").isEmpty)
        let sarif = try Self.json(folder.path("lint.sarif"))
        let results = try #require(sarif["runs"]?.arrayValue?.first?["results"]?.arrayValue)
        let badRef = try #require(results.first { $0["message"]?["text"] == "the reference schemas/Missing.json does not resolve" })
        #expect(badRef["ruleId"] == "spotcheck/lint/contract")
        #expect(badRef["locations"]?.arrayValue?.first?["physicalLocation"]?["region"]?["startLine"] == .number(Double(refLine)))
        let uri = try #require(badRef["locations"]?.arrayValue?.first?["physicalLocation"]?["artifactLocation"]?["uri"]?.stringValue)
        #expect(uri == "Tests/ContractKitTests/Fixtures/broken-contracts/bad-ref.json")
        let summary = try String(contentsOfFile: folder.path("summary.md"), encoding: .utf8)
        #expect(summary.hasPrefix("## ❌ spotcheck lint: "))
    }

    @Test func aCleanLintAppendsToTheGitHubStepSummaryAndPassesEveryFile() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let stepSummary = folder.path("step-summary.md")
        try Data("earlier step\n".utf8).write(to: URL(fileURLWithPath: stepSummary))
        let request = CIReportRequest(ctrf: folder.path("lint.ctrf.json"), environment: [JobSummary.environmentVariable: stepSummary])
        let outcome = LintCommand.execute(directory: Self.repository.appendingPathComponent("contracts").path, ci: request)
        #expect(outcome.exitCode == 0)
        #expect(!outcome.output.contains("::"), "no annotations outside GitHub Actions")
        let summary = try String(contentsOfFile: stepSummary, encoding: .utf8)
        #expect(summary.hasPrefix("earlier step\n## ✅ spotcheck lint: passed\n"))
        let ctrf = try Self.json(folder.path("lint.ctrf.json"))
        #expect(ctrf["results"]?["summary"]?["failed"] == 0)
        #expect((ctrf["results"]?["summary"]?["passed"]?.intValue ?? 0) >= 8)
    }

    @Test func anUnwritableReportFileExitsTwoWithItsPath() {
        let request = CIReportRequest(ctrf: "/nonexistent-folder/r.json", environment: [:])
        let outcome = LintCommand.execute(directory: Self.repository.appendingPathComponent("contracts").path, ci: request)
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.contains("spotcheck lint: cannot write /nonexistent-folder/r.json"))
    }

    @Test func ciReportOptionsDoNotApplyToRecordings() {
        #expect(throws: (any Error).self) { try LintCommand.parse(["--recordings", "rec", "--sarif", "lint.sarif"]) }
        #expect(throws: Never.self) { try LintCommand.parse(["--recordings", "rec"]) }
    }

    @Test func diffAnnotatesABreakingChangeOnItsLineAndWritesSARIF() throws {
        let workspace = try DiffCommandTests.Workspace()
        defer { workspace.remove() }
        try workspace.moveToBearer()
        let sarifPath = workspace.root.appendingPathComponent("diff.sarif").path
        let ctrfPath = workspace.root.appendingPathComponent("diff.ctrf.json").path
        let command = try DiffCommand.parse([DiffCommandTests.contracts.path, workspace.contracts.path, "--sarif", sarifPath, "--ctrf", ctrfPath])
        let outcome = command.execute(environment: ["GITHUB_ACTIONS": "true"])
        #expect(outcome.exitCode == 1)
        let upload = workspace.contracts.appendingPathComponent("upload-photo.json")
        let schemeLine = try Self.line(of: "\"scheme\"", in: upload)
        #expect(outcome.output.contains("upload-photo.json,line=\(schemeLine),col="), "\(outcome.output)")
        #expect(outcome.output.contains(",title=uploadPhoto%3A authChanged::the auth scheme changed from Basic to Bearer"))
        #expect(try Self.violations(sarifPath, schema: "sarif-schema-2.1.0.json").isEmpty)
        #expect(try Self.violations(ctrfPath, schema: "ctrf.schema.json").isEmpty)
        let ctrf = try Self.json(ctrfPath)
        #expect(ctrf["results"]?["summary"]?["failed"] == 2)
    }

    @Test func runPutsAFailingScenarioOnItsStepLine() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let scenarios = folder.url.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: RunCommandTests.scenarios + "/fixtures/photo.jpg",
                                         toPath: scenarios.appendingPathComponent("fixtures/photo.jpg").path)
        let doc = #"""
            {"name": "expects offline from a 503", "report": {"species": "dog", "sex": "MALE", "lastSeenDate": "2025-11-01",
              "locationLatitude": 52.2, "locationLongitude": 21.0, "phone": "+48 123 456 789", "email": "a@b.co", "photo": {"file": "photo.jpg"}},
             "faults": [{"contract": "createAnnouncement", "calls": [1], "fault": {"kind": "status", "status": 503}}],
             "steps": [
               {"action": "submit", "expect": {"outcome": "failure", "alert": {"kind": "noConnection"}}}
             ]}
            """#
        let file = scenarios.appendingPathComponent("wrong.json")
        try Data(doc.utf8).write(to: file)
        let command = try RunCommand.parse(["--scenarios", scenarios.path, "--contracts", RunCommandTests.contracts,
                                            "--ctrf", folder.path("run.ctrf.json"), "--summary", folder.path("summary.md")])
        let lines = RunCommandTests.Lines()
        let code = await command.execute(print: { lines.add($0) }, environment: ["GITHUB_ACTIONS": "true"])
        #expect(code == 1)
        let annotation = try #require(lines.text.split(separator: "\n").first { $0.hasPrefix("::error ") })
        #expect(annotation.contains("wrong.json,line=5,col=4,title=expects offline from a 503::step 1 (submit) at /steps/0:%0A"), "\(annotation)")
        #expect(try Self.violations(folder.path("run.ctrf.json"), schema: "ctrf.schema.json").isEmpty)
        let test = try #require(Self.json(folder.path("run.ctrf.json"))["results"]?["tests"]?.arrayValue?.first)
        #expect(test["status"] == "failed" && test["line"] == 5)
        let summary = try String(contentsOfFile: folder.path("summary.md"), encoding: .utf8)
        #expect(summary.hasPrefix("## ❌ spotcheck run: 1 failed\n"))
        #expect(summary.contains("- **expects offline from a 503** `"))
    }

    @Test func verifyPutsEachCheckOnItsExampleInTheContract() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        var options = ContractMock.Options(contracts: try ContractSet.load(from: URL(fileURLWithPath: RunCommandTests.contracts)), quiet: true)
        options.reproduceKnownDefects = true
        let backend = try await ContractMock.start(options)
        let lines = RunCommandTests.Lines()
        let code: Int32
        do {
            let command = try VerifyCommand.parse(["--timeout", "120", "--contracts", RunCommandTests.contracts, "--target", backend.baseURL.absoluteString,
                                                   "--skip", "photo of 20 MiB", "--no-explore", "--ctrf", folder.path("verify.ctrf.json")])
            code = await command.execute(print: { lines.add($0) }, environment: ["GITHUB_ACTIONS": "true"])
        } catch {
            try await backend.shutdown()
            throw error
        }
        try await backend.shutdown()
        #expect(code == 0, "\(lines.text)")
        #expect(try Self.violations(folder.path("verify.ctrf.json"), schema: "ctrf.schema.json").isEmpty)
        let tests = try #require(Self.json(folder.path("verify.ctrf.json"))["results"]?["tests"]?.arrayValue)
        let defect = try #require(tests.first { $0["name"] == "createAnnouncement › malformed JSON" })
        #expect(defect["status"] == "other" && defect["rawStatus"] == "knownDefect")
        let contract = URL(fileURLWithPath: RunCommandTests.contracts).appendingPathComponent("create-announcement.json")
        let nameLine = try Self.line(of: "\"name\": \"malformed JSON\"", in: contract)
        let line = try #require(defect["line"]?.intValue)
        // The example object starts on its name's line or the one before.
        #expect(line == nameLine || line == nameLine - 1, "line \(line), name on \(nameLine)")
        #expect(defect["filePath"] == "contracts/create-announcement.json")
        #expect(lines.text.contains("::notice file=contracts/create-announcement.json,line=\(line),"))
    }

    @Test func exploreWritesOneCTRFTestPerModelRule() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let command = try ExploreCommand.parse(["--contracts", RunCommandTests.contracts, "--seed", "9", "--runs", "6", "--jobs", "2",
                                                "--ctrf", folder.path("explore.ctrf.json"), "--junit", folder.path("explore.xml")])
        // Under heavy load a session can time out and fail; the report's shape must not depend on it.
        let code = await command.execute(print: { _ in })
        #expect(try Self.violations(folder.path("explore.ctrf.json"), schema: "ctrf.schema.json").isEmpty)
        let report = try Self.json(folder.path("explore.ctrf.json"))
        let tests = try #require(report["results"]?["tests"]?.arrayValue)
        // One test per model rule, as the JUnit report has one test case per rule.
        let junitCases = try String(contentsOfFile: folder.path("explore.xml"), encoding: .utf8).components(separatedBy: "<testcase ").count - 1
        #expect(tests.count == junitCases && tests.count > 1)
        #expect(tests.allSatisfy { $0["suite"] == ["spotcheck explore seed 9"] })
        #expect(report["results"]?["summary"]?["failed"] == .number(code == 0 ? 0 : 1))
        #expect(report["extra"]?["facts"]?.arrayValue?.first?.stringValue?.hasPrefix("seed 9; client: ") == true)
    }
}
