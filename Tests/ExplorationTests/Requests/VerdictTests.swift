import CIReports
import ContractKit
import Foundation
import ContractModel
import MockBackend
import ScenarioEngine
import Testing
@testable import Exploration

/// Stated rules fail, guesses are notes (design.md, "Verdicts"): the same changed server is a failure against a model
/// that states the answer and a note against one that records it assumed the answer; `--strict` fails on notes.
@Suite struct VerdictTests {
    static let contracts = RequestExplorerTests.contracts
    /// What the test's model says it assumed for the email pattern's answer.
    static let assumption = "createAnnouncement /request/body/properties/email: no x-errors for pattern; answered the contract's first 400 — «test»"

    /// The documented create error message a changed server rewords.
    static func rewordEmailMessage(_ request: MockRequest, _ response: MockResponse) -> MockResponse {
        ChangedServer.rewrite(response) { body in
            guard body["error"]?["message"]?.stringValue == "invalid email format", var error = body["error"]?.objectValue else { return body }
            error["message"] = "email format is invalid"
            return .object(["error": .object(error)])
        }
    }

    /// Explores `server` against `model` (and the mock with its known defects), every server shut down after.
    static func explore(server: ChangedServer, model: ChangedServer) async throws -> ExplorationOutcome {
        var defectsOptions = ContractMock.Options(contracts: try contracts.get(), quiet: true)
        defectsOptions.reproduceKnownDefects = true
        let defects = try await ContractMock.start(defectsOptions)
        var options = RequestExplorer.Options(seed: RequestExplorerTests.seed)
        options.adminToken = "tajnehasloadmina"
        options.timeout = .seconds(120)
        options.cases = 400
        let explorer = RequestExplorer(contracts: try contracts.get(), target: server.baseURL, options: options)
        let outcome = await ExplorationSlots.shared.run { await explorer.explore(model: model.baseURL, modelWithDefects: defects.baseURL) }
        try await defects.shutdown()
        try await server.shutdown()
        try await model.shutdown()
        #expect(outcome.setupFailure == nil, "\(outcome.setupFailure ?? "")")
        return outcome
    }

    static func exitCode(_ outcome: ExplorationOutcome, strict: Bool) -> Int32 {
        RunReport(results: ExplorationResults.results(outcome, strictHeaders: false, strict: strict), duration: .zero, client: "test", target: "test").exitCode
    }

    @Test func aServerSendsAssumptionsOnlyWhenConfiguredTo() async throws {
        let bend: ChangedServer.Bend = { _, response in
            var response = response
            response.assumptions = ["a guess"]
            return response
        }
        for sends in [false, true] {
            let server = try await ChangedServer.start(bend: bend, sendsAssumptions: sends)
            let answer: ExactHTTPClient.Answer
            do {
                answer = try await ExactHTTPClient(timeout: .seconds(120)).send(method: "GET", url: server.baseURL.appendingPathComponent("api/health"),
                                                                               headers: [:], body: Data())
            } catch {
                try await server.shutdown()
                throw error
            }
            try await server.shutdown()
            #expect(AssumptionHeader.assumptions(in: answer.headers) == (sends ? ["a guess"] : []))
        }
    }

    @Test func aStatedMessageChangedIsAFailure() async throws {
        let server = try await ChangedServer.start(bend: Self.rewordEmailMessage)
        let model = try await ChangedServer.start()
        let outcome = try await Self.explore(server: server, model: model)
        let failing = outcome.groups.filter(\.isFailure)
        #expect(!failing.isEmpty)
        #expect(outcome.groups.allSatisfy { !$0.isNote }, "\(outcome.groups.map(\.headline))")
        #expect(Self.exitCode(outcome, strict: false) == 1)
        #expect(ExplorationResults.consoleLines(outcome, strictHeaders: false).contains { $0.hasPrefix("  ✗ createAnnouncement") })
    }

    @Test func theSameChangeWhereTheModelAssumedIsANoteThatFailsOnlyUnderStrict() async throws {
        let server = try await ChangedServer.start(bend: Self.rewordEmailMessage)
        // The model records an assumption for exactly the answer the server words differently.
        let model = try await ChangedServer.start(bend: { _, response in
            var response = response
            let body = try? JSONValue(parsing: Data(response.body.readableBytesView))
            if body?["error"]?["message"]?.stringValue == "invalid email format" { response.assumptions = [Self.assumption] }
            return response
        }, sendsAssumptions: true)
        let outcome = try await Self.explore(server: server, model: model)
        #expect(!outcome.groups.isEmpty)
        #expect(outcome.groups.allSatisfy { $0.isNote }, "\(outcome.groups.filter(\.isFailure).map(\.headline))")
        // The sentence crossed the wire (percent-encoded) whole.
        #expect(outcome.groups.allSatisfy { $0.verdict.assumptions == [Self.assumption] })
        #expect(Self.exitCode(outcome, strict: false) == 0)
        #expect(Self.exitCode(outcome, strict: true) == 1)

        // The coverage of stated rules is its own informational result; the verdicts are the rest.
        let results = ExplorationResults.results(outcome, strictHeaders: false).filter { !$0.name.hasSuffix("stated rules") }
        #expect(!results.isEmpty)
        #expect(results.allSatisfy { $0.status == .note && $0.assumptions == [Self.assumption] })
        let strictResults = ExplorationResults.results(outcome, strictHeaders: false, strict: true).filter { !$0.name.hasSuffix("stated rules") }
        #expect(strictResults.allSatisfy { $0.status == .failed && $0.failureMessage?.contains(Self.assumption) == true })

        let console = ExplorationResults.consoleLines(outcome, strictHeaders: false)
        #expect(console.contains { $0.contains("where the contracts state nothing (notes)") }, "\(console)")
        #expect(console.contains { $0.hasPrefix("  ≈ note: createAnnouncement") })
        #expect(console.contains("      assumed: \(Self.assumption)"))

        // Every report verify writes tells the notes from failures and names the assumption.
        let report = RunReport(results: results, duration: .zero, client: "test", target: "test")
        let junit = JUnitReporter.document(report)
        #expect(junit.contains("failures=\"0\""))
        #expect(junit.contains("<property name=\"verdict\" value=\"note\"/>"))
        #expect(junit.contains("assumed: createAnnouncement /request/body/properties/email"))
        let json = JSONReporter.document(report)
        #expect(json["summary"]?["notes"] == .number(Double(results.count)))
        #expect(json["summary"]?["failed"] == .number(0))
        let first = json["results"]?.arrayValue?.first
        #expect(first?["status"]?.stringValue == "note")
        #expect(first?["assumptions"]?.arrayValue?.first?.stringValue == Self.assumption)
        var locator = SourceLocator(root: URL(fileURLWithPath: FileManager.default.temporaryDirectory.path))
        let ci = report.ciResults(suite: "spotcheck verify", folder: "contracts", locator: &locator)
        #expect(ci.allSatisfy { $0.status == .other && $0.rawStatus == "note" && $0.level == .warning && $0.message?.contains(Self.assumption) == true })
        #expect(ConsoleReporter.summary(report, noun: "checks").contains("\(results.count) notes"))
        #expect(ConsoleReporter.line(for: results[0]).hasPrefix("NOTE"))
    }
}

/// The rule for differences with no recorded assumption: only a body member the response schema leaves free is a note.
@Suite struct StatedAspectsTests {
    static func rule() throws -> StatedAspects { StatedAspects(contracts: try RequestExplorerTests.contracts.get()) }

    static func difference(_ aspect: String, pointer: String? = nil, excusable: Bool = true) -> AnswerDifference {
        AnswerDifference(aspect: aspect, model: "a", server: "b", groupsByValue: true, bodyPointer: pointer, excusable: excusable)
    }

    @Test func aMemberAnOpenSchemaDoesNotDeclareIsFreeAndAClosedOneStatesIt() throws {
        let contracts = try RequestExplorerTests.contracts.get()
        let health = try #require(contracts.contract(id: "health"))
        let read = try #require(contracts.contract(id: "getAnnouncement"))
        #expect(try Self.rule().undeclared("/uptime", in: health, status: 200)?.contains("does not declare /uptime") == true)
        #expect(try Self.rule().undeclared("/status", in: health, status: 200) == nil, "a declared member is stated")
        #expect(try Self.rule().undeclared("/extra", in: read, status: 200) == nil, "Announcement has additionalProperties: false")
        #expect(try Self.rule().undeclared("/error/hint", in: read, status: 404) == nil, "the error envelope is closed")
        #expect(try Self.rule().undeclared("/uptime", in: health, status: 503) == nil, "no documented answer states nothing free")
    }

    @Test func assumptionsMakeStatusAndBodyNotesButNeverAMissingRequiredHeader() throws {
        let rule = try Self.rule()
        let status = [Self.difference("status")]
        #expect(rule.verdict(status, contractID: "createAnnouncement", status: 400, assumptions: [], readContractID: nil, readAssumptions: []) == .failure)
        #expect(rule.verdict(status, contractID: "createAnnouncement", status: 400, assumptions: ["x"], readContractID: nil, readAssumptions: [])
            == .note(assumptions: ["x"]))
        let header = status + [Self.difference("header request-id", excusable: false)]
        #expect(rule.verdict(header, contractID: "createAnnouncement", status: 400, assumptions: ["x"], readContractID: nil, readAssumptions: []) == .failure)
        let readBack = [Self.difference("read back body /email", pointer: "/email")]
        #expect(rule.verdict(readBack, contractID: "createAnnouncement", status: 201, assumptions: [], readContractID: "getAnnouncement",
                             readAssumptions: ["y"]) == .note(assumptions: ["y"]))
        let free = [Self.difference("body /uptime", pointer: "/uptime")]
        #expect(rule.verdict(free, contractID: "health", status: 200, assumptions: [], readContractID: nil, readAssumptions: []).isNote)
        #expect(rule.verdict(free + status, contractID: "health", status: 200, assumptions: [], readContractID: nil, readAssumptions: []) == .failure)
        #expect(rule.verdict(free, contractID: nil, status: 200, assumptions: [], readContractID: nil, readAssumptions: []) == .failure,
                "a route beyond the contracts has no schema to leave anything free")
    }
}
