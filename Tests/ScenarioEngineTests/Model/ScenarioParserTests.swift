import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

@Suite struct ScenarioParserTests {
    static let minimal = #"{"name": "n", "report": "default", "steps": [{"action": "submit", "expect": {"outcome": "success"}}]}"#

    @Test func parsesAMinimalScenarioWithTheDefaultFixture() throws {
        let s = try EngineTestSupport.parse(Self.minimal)
        #expect(s.name == "n")
        #expect(s.report.text("email") == "owner@example.com")
        #expect(s.report.photo?.bytes.starts(with: [0xFF, 0xD8, 0xFF]) == true)
        #expect(s.client.requestTimeoutMs == ClientSettings.defaultRequestTimeoutMs)
        #expect(s.steps.count == 1)
        #expect(s.steps[0].expect.outcome == .success)
    }

    @Test func rejectsAnUnknownTopLevelKeyWithItsPointer() {
        let problems = EngineTestSupport.problems(#"{"name": "n", "report": "default", "stepz": [], "steps": [{"action": "submit"}]}"#)
        #expect(problems.map(\.pointer) == ["/stepz"])
        #expect(problems.first?.message.contains("unknown key \"stepz\"") == true)
        #expect(problems.first?.description.hasPrefix("test.json:/stepz: ") == true)
    }

    @Test func rejectsUnknownKeysInsideStepsAndExpectations() {
        let problems = EngineTestSupport.problems(
            #"{"name": "n", "report": "default", "steps": [{"action": "submit", "expect": {"outcom": "success"}}, {"action": "retry", "extra": 1}]}"#)
        #expect(problems.map(\.pointer) == ["/steps/0/expect/outcom", "/steps/1/extra"])
    }

    @Test func reportsEveryProblemOfAFileAtOnce() {
        let problems = EngineTestSupport.problems(
            #"{"name": "", "report": {"species": 3}, "client": {"timeoutMs": "fast"}, "steps": [{"action": "jump"}]}"#)
        #expect(Set(problems.map(\.pointer)) == ["/name", "/report/species", "/client/timeoutMs", "/steps/0/action"])
    }

    @Test func namesTheExpectedValuesOfAnUnknownAction() throws {
        let problem = try #require(EngineTestSupport.problems(#"{"name": "n", "report": "default", "steps": [{"action": "jump"}]}"#).first)
        #expect(problem.pointer == "/steps/0/action")
        #expect(problem.message.contains("submit, retry, cancel"))
    }

    @Test func rejectsABadRegularExpression() {
        let problems = EngineTestSupport.problems(
            #"{"name": "n", "report": "default", "steps": [{"action": "submit", "expect": {"managementPassword": "^[0-9{6}$"}}]}"#)
        #expect(problems.map(\.pointer) == ["/steps/0/expect/managementPassword"])
        #expect(problems.first?.message.contains("not a valid regular expression") == true)
    }

    @Test func rejectsAnUnknownFaultKindThroughTheFaultLayerParser() {
        let problems = EngineTestSupport.problems(
            #"{"name": "n", "report": "default", "faults": [{"contract": "uploadPhoto", "fault": {"kind": "explode"}}], "steps": [{"action": "submit"}]}"#)
        #expect(problems.count == 1)
        #expect(problems.first?.pointer.hasPrefix("/faults/0/fault") == true)
        #expect(problems.first?.message.contains("explode") == true)
    }

    @Test func rejectsAMissingFixture() {
        let problems = EngineTestSupport.problems(#"{"name": "n", "report": "nope", "steps": [{"action": "submit"}]}"#)
        #expect(problems.map(\.pointer) == ["/report"])
        #expect(problems.first?.message.contains("no fixture file \"nope.json\"") == true)
    }

    @Test func rejectsFixtureNamesThatLeaveTheFixturesFolder() {
        let problems = EngineTestSupport.problems(#"{"name": "n", "report": "../Package", "steps": [{"action": "submit"}]}"#)
        #expect(problems.first?.message.contains("without a folder") == true)
    }

    @Test func rejectsRetryAsTheFirstStep() {
        let problems = EngineTestSupport.problems(#"{"name": "n", "report": "default", "steps": [{"action": "retry"}]}"#)
        #expect(problems.map(\.pointer) == ["/steps/0/action"])
    }

    @Test func rejectsHTTPChecksOnClientSteps() {
        let problems = EngineTestSupport.problems(#"{"name": "n", "report": "default", "steps": [{"action": "submit", "expect": {"status": 201}}]}"#)
        #expect(problems.map(\.pointer) == ["/steps/0/expect/status"])
    }

    @Test func rejectsContradictoryJournalExpectations() {
        let problems = EngineTestSupport.problems(
            #"{"name": "n", "report": "default", "steps": [{"action": "submit", "expect": {"journal": {"noRequests": true, "calls": {"createAnnouncement": 1}}}}]}"#)
        #expect(problems.map(\.pointer) == ["/steps/0/expect/journal/noRequests"])
    }

    @Test func overridesAndRemovesReportFieldsAndExpandsRepeatedText() throws {
        let s = try EngineTestSupport.parse(
            #"{"name": "n", "report": "default", "reportOverrides": {"phone": "123", "email": null, "reward": {"repeat": "ab", "count": 3}}, "steps": [{"action": "editField", "field": "reward", "value": {"repeat": "x", "count": 121}}]}"#)
        #expect(s.report.text("phone") == "123")
        #expect(s.report.fields["email"] == nil)
        #expect(s.report.text("reward") == "ababab")
        guard case .client(.editField(let field, let value)) = s.steps[0].action else {
            Issue.record("expected an editField step")
            return
        }
        #expect(field == "reward")
        #expect(value.count == 121)
    }

    @Test func acceptsEitherAlertKindWhenPlatformsDiffer() throws {
        let s = try EngineTestSupport.parse(
            #"{"name": "n", "report": "default", "steps": [{"action": "submit", "expect": {"outcome": "failure", "alert": {"kind": ["noConnection", "generic"]}}}]}"#)
        #expect(s.steps[0].expect.alert?.kinds == ["noConnection", "generic"])
    }

    @Test func parsesRawHTTPStepsWithCapturesAndBasicAuth() throws {
        let s = try EngineTestSupport.parse(#"""
            {"name": "n", "report": "default", "steps": [
              {"action": "http", "request": {"method": "POST", "path": "/api/v1/announcements", "json": {"a": 1}}, "capture": {"id": "/id"},
               "expect": {"status": 201, "bodyMatches": {"/id": "^.+$"}, "headers": {"request-id": "^[A-Za-z0-9]{10}$"}}},
              {"action": "http", "request": {"method": "POST", "path": "/api/v1/announcements/${id}/photos", "basicAuth": {"user": "${id}", "password": "x"},
               "multipart": {"photo": {"file": "photo.jpg"}}}, "expect": {"status": 403, "errorCode": "UNAUTHORIZED"}}
            ]}
            """#)
        guard case .http(let first) = s.steps[0].action, case .http(let second) = s.steps[1].action else {
            Issue.record("expected http steps")
            return
        }
        #expect(first.capture.map(\.name) == ["id"])
        #expect(second.basicAuth?.user == "${id}")
        #expect(s.steps[1].expect.http?.errorCode == "UNAUTHORIZED")
    }

    @Test func theBundledLibraryLoadsWithAtLeastThirtyUniquelyNamedScenarios() throws {
        let library = try EngineTestSupport.library()
        #expect(library.scenarios.count >= 30)
        #expect(Set(library.scenarios.map(\.name)).count == library.scenarios.count)
    }

    @Test func duplicateNamesInAFolderAreAProblem() throws {
        let dir = try EngineTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = #"{"name": "same", "report": {"phone": "1234567"}, "steps": [{"action": "submit"}]}"#
        try Data(doc.utf8).write(to: dir.appendingPathComponent("a.json"))
        try Data(doc.utf8).write(to: dir.appendingPathComponent("b.json"))
        #expect(throws: ScenarioLoadError.self) { try ScenarioLibrary.load(from: dir) }
        do {
            _ = try ScenarioLibrary.load(from: dir)
        } catch {
            #expect(error.problems.map(\.description) == ["b.json:/name: the name \"same\" is already used by a.json; names must be unique because filters and shards select by name"])
        }
    }
}
