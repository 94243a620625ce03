import ContractKit
import Foundation
import NIOCore
import Testing

@testable import ContractModel
@testable import MockBackend
@testable import spotcheck

/// Issue 37: inside GitHub Actions a name, key or message holding `\n::error …` or `::stop-commands::` starts no
/// workflow command through `run`, `lint` or `explore`; the only commands are SpotCheck's own escaped annotations.
@Suite struct ForgedWorkflowCommandTests {
    static let forged = "x\n::error file=evil.swift,line=1::forged\n::stop-commands::tok"

    /// The lines of `text` that start a workflow command and are not SpotCheck's own annotations (which escape their data).
    static func forgedLines(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init).filter { line in
            let start = line.drop(while: { $0 == " " || $0 == "\t" })
            return start.hasPrefix("::error file=evil.swift") || start.hasPrefix("::stop-commands")
        }
    }

    @Test func runPrintsAScenarioNamedLikeACommandWithoutStartingOne() async throws {
        let folder = try CIReportCommandTests.Folder()
        defer { folder.remove() }
        let scenarios = folder.url.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        let name = JSONValue.string(Self.forged).serialized()
        let doc = #"{"name": \#(name), "report": {"species": "dog", "sex": "MALE", "lastSeenDate": "2025-11-01", "locationLatitude": 52.2, "locationLongitude": 21.0, "phone": "+48 123 456 789", "email": "a@b.co"}, "steps": [{"action": "http", "request": {"method": "GET", "path": "/api/health"}, "expect": {"status": 500}}]}"#
        try Data(doc.utf8).write(to: scenarios.appendingPathComponent("forged.json"))
        let command = try RunCommand.parse(["--scenarios", scenarios.path, "--contracts", RunCommandTests.contracts, "--summary", folder.path("s.md")])
        let lines = RunCommandTests.Lines()
        let code = await command.execute(print: { lines.add($0) }, environment: ["GITHUB_ACTIONS": "true"])
        #expect(code == 1)
        #expect(lines.text.contains("::error "), "SpotCheck's own annotation is still printed")
        #expect(Self.forgedLines(lines.text).isEmpty, "\(lines.text)")
        let summary = try String(contentsOfFile: folder.path("s.md"), encoding: .utf8)
        #expect(!summary.contains("\n::error file=evil.swift"))
    }

    /// Issue 44: a failed scenario whose file name holds a line break gets its annotation like every other, escaped.
    @Test func everyFailedScenarioGetsOneAnnotationThoughItsFileNameHoldsALineBreak() async throws {
        let folder = try CIReportCommandTests.Folder()
        defer { folder.remove() }
        let scenarios = folder.url.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        for (file, name) in [("plain.json", "plain"), ("line\nbreak.json", "broken line")] {
            let doc = #"{"name": "\#(name)", "report": {"species": "dog", "sex": "MALE", "lastSeenDate": "2025-11-01", "locationLatitude": 52.2, "locationLongitude": 21.0, "phone": "+48 123 456 789", "email": "a@b.co"}, "steps": [{"action": "http", "request": {"method": "GET", "path": "/api/health"}, "expect": {"status": 500}}]}"#
            try Data(doc.utf8).write(to: scenarios.appendingPathComponent(file))
        }
        let command = try RunCommand.parse(["--scenarios", scenarios.path, "--contracts", RunCommandTests.contracts])
        let lines = RunCommandTests.Lines()
        let code = await command.execute(print: { lines.add($0) }, environment: ["GITHUB_ACTIONS": "true"])
        #expect(code == 1)
        let annotations = lines.text.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(annotations.count == 2, "\(lines.text)")
        #expect(annotations.contains { $0.contains("line%0Abreak.json") }, "\(annotations)")
        #expect(Self.forgedLines(lines.text).isEmpty)
    }

    @Test func lintPrintsAContractKeyLikeACommandWithoutStartingOne() throws {
        let folder = try CIReportCommandTests.Folder()
        defer { folder.remove() }
        let contracts = folder.url.appendingPathComponent("contracts")
        try FileManager.default.copyItem(at: ContractSet.bundledDirectory, to: contracts)
        let health = contracts.appendingPathComponent("health.json")
        guard case .object(var object) = try JSONValue(parsing: Data(contentsOf: health)) else { Issue.record("health.json"); return }
        object[Self.forged] = true
        try JSONValue.object(object).data(pretty: true).write(to: health)
        let copy = (url: contracts, ())
        let outcome = LintCommand.execute(directory: copy.url.path, ci: CIReportRequest(environment: ["GITHUB_ACTIONS": "true"]))
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.contains("::error "), "SpotCheck's own annotation is still printed")
        #expect(Self.forgedLines(outcome.output).isEmpty, "\(outcome.output)")
        // Outside GitHub Actions the text is printed as it is.
        #expect(!Self.forgedLines(LintCommand.execute(directory: copy.url.path).output).isEmpty)
    }

    @Test func verifyPrintsAServerMessageLikeACommandWithoutStartingOne() async throws {
        // The server's error messages carry the forged lines: verify prints them as what came back.
        let contracts = URL(fileURLWithPath: RunCommandTests.contracts)
        let (code, text) = try await VerifyVerdictTests.BentServer.with(contracts: contracts, bend: { _, response in
            guard response.status == .badRequest else { return response }
            return DriftResponder.rewriteJSON(response) { body in
                guard case .object(var root) = body, case .object(var error)? = root["error"] else { return body }
                error["message"] = .string(Self.forged)
                root["error"] = .object(error)
                return .object(root)
            }
        }) { target in
            let command = try VerifyCommand.parse(["--timeout", "120", "--contracts", RunCommandTests.contracts, "--target", target.absoluteString,
                                                   "--skip", "photo of 20 MiB", "--seed", "37", "--cases", "50"])
            let lines = RunCommandTests.Lines()
            let code = await command.execute(print: { lines.add($0) }, environment: ["GITHUB_ACTIONS": "true"])
            return (code, lines.text)
        }
        #expect(code == 1, "\(text)")
        #expect(text.contains("evil.swift"), "the forged message is reported, as text")
        #expect(Self.forgedLines(text).isEmpty, "\(text)")
    }
}
