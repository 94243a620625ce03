import ContractKit
import Foundation
import Testing

@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// The failure report says why: the expected alert's own text, the client's stderr, journal lines with the server's
/// reasons, one message for a hung client, and engine reads that never meet the scenario's faults.
@Suite struct ReportFixesTests {
    static let offline = #"""
        {"name": "offline", "report": "default", "faults": [{"fault": {"kind": "refuse"}}],
         "steps": [{"action": "submit", "expect": {"outcome": "failure", "alert": {"kind": "noConnection"}}}]}
        """#

    @Test func theExpectedAlertTextIsTheExpectedAlertsNotTheShownOnes() throws {
        let step = try EngineTestSupport.parse(Self.offline).steps[0]
        let shown = ClientObservation(outcome: .failure, alert: ObservedAlert(kind: "generic", message: "Something went wrong. Please try again later."), screen: "form")
        let text = ExpectationChecker(step: step).check(shown, expectedInputs: [:]).map(\.description).joined(separator: "\n")
        #expect(text.contains("alert kind: expected noConnection, got generic"), "\(text)")
        #expect(text.contains("alert message: expected \"No connection. Please check your network and try again.\""), "\(text)")
    }

    @Test func aCauseMakesTheAlertStrictAndExplainsTheMismatch() throws {
        let step = try EngineTestSupport.parse(#"""
            {"name": "drop", "report": "default",
             "steps": [{"action": "submit", "expect": {"outcome": "failure", "alert": {"kind": ["noConnection", "generic"]}}}]}
            """#).steps[0]
        let checker = ExpectationChecker(step: step)
        var o = ClientObservation(outcome: .failure, alert: ObservedAlert(kind: "generic", message: "Something went wrong. Please try again later."), screen: "form")
        #expect(checker.check(o, expectedInputs: [:]).isEmpty, "without a cause either alert passes")
        #expect(checker.weakerChecks(o).count == 1)
        o.cause = ObservedCause(kind: .urlError, domain: "NSURLErrorDomain", code: -1009)
        let text = checker.check(o, expectedInputs: [:]).map(\.description).joined(separator: "\n")
        #expect(text.contains("the networking layer reported NSURLErrorDomain -1009 (not connected to the internet), and the seeds require the no-connection alert"), "\(text)")
        #expect(text.contains("a wrapper around the URLError hid it"), "only an offline URLError shown as generic suggests a wrapper: \(text)")
        o.cause = ObservedCause(kind: .urlError, domain: "NSURLErrorDomain", code: -1005)
        #expect(checker.check(o, expectedInputs: [:]).isEmpty, "a lost connection shown as generic is 003 T044's reading")
        #expect(checker.readings(o).first?.contains("003 T044") == true)
        o.cause = ObservedCause(kind: .urlError, code: -1011)
        #expect(checker.check(o, expectedInputs: [:]).isEmpty, "Linux's badServerResponse for a drop: either alert")
        #expect(checker.readings(o).first?.contains("an Apple device reports -1005") == true, "\(checker.readings(o))")
        #expect(checker.weakerChecks(o).isEmpty)
        o.cause = ObservedCause(kind: .httpStatus, status: 503)
        o.alert = ObservedAlert(kind: "noConnection", message: "No connection. Please check your network and try again.")
        let server = checker.check(o, expectedInputs: [:]).map(\.description).joined()
        #expect(server.contains("reported HTTP status 503, and the seeds require the generic alert \"Something went wrong. Please try again later.\""), "\(server)")
        #expect(!server.contains("wrapper"), "\(server)")
    }

    @Test func aCauseTheFaultCannotProduceIsReported() throws {
        let step = try EngineTestSupport.parse(Self.offline).steps[0]
        var o = ClientObservation(outcome: .failure, alert: ObservedAlert(kind: "generic", message: "Something went wrong. Please try again later."), screen: "form")
        o.cause = ObservedCause(kind: .httpStatus, status: 500)
        let text = ExpectationChecker(step: step).check(o, expectedInputs: [:]).map(\.description).joined(separator: "\n")
        #expect(text.contains("alert cause: the networking layer reported HTTP status 500"), "\(text)")
    }

    @Test func journalLinesShowQueryStatusErrorCodeAndField() {
        let record = JournalRecord(sequence: 4, method: "GET", path: "/api/v1/announcements", contract: "listAnnouncements", status: 400,
                                   authUser: nil, fault: nil, query: "lat=abc&lng=1", errorCode: "INVALID_PARAMETER", errorField: "lat")
        #expect(record.line == "#4 GET /api/v1/announcements?lat=abc&lng=1 (listAnnouncements) → 400 INVALID_PARAMETER field lat")
    }

    @Test func anExpectationMismatchCarriesTheClientsStderr() async throws {
        let script = #"""
            read start; echo '{"id": 1, "outcome": "ready"}'
            read submit; echo "driver: tapped Continue, saw the generic popup" >&2
            echo '{"id": 2, "outcome": "failure", "alert": {"kind": "generic", "message": "Something went wrong. Please try again later."}, "screen": "form"}'
            read quit
            """#
        let report = try await EngineTestSupport.run([try EngineTestSupport.parse(Self.offline)], driver: ProcessDriver(command: script), jobs: 1)
        let failure = try #require(report.results.first?.failure)
        #expect(failure.clientStderr?.contains("driver: tapped Continue, saw the generic popup") == true, "\(failure.message)")
        #expect(failure.message.contains("client stderr (tail):"))
    }

    @Test func aHungClientGetsTheEnginesOneMessage() async throws {
        let script = #"""
            read start; echo '{"id": 1, "outcome": "ready"}'
            read submit; echo "driver: waiting for the app" >&2; sleep 30
            """#
        var scenario = try EngineTestSupport.parse(#"{"name": "hung", "report": "default", "steps": [{"action": "submit"}]}"#)
        scenario.client = ClientSettings(requestTimeoutMs: 2000, stepTimeoutMs: 500)
        let runner = ScenarioRunner(driver: ProcessDriver(command: script), targets: EmbeddedBackendProvider(contracts: try EngineTestSupport.contracts()), seed: 1)
        let failure = try #require(await runner.run(scenario).failure)
        #expect(failure.message.contains("client answer: expected an answer within 500 ms, got none: the client hung"), "\(failure.message)")
        #expect(!failure.message.contains("did not answer"), "only the engine's deadline speaks: \(failure.message)")
        #expect(failure.clientStderr?.contains("waiting for the app") == true)
    }

    @Test func theEnginesOwnLookUpsNeverMeetTheFaults() async throws {
        // Step 2 fails with 500, so the engine must confirm the created id itself, while every read of an announcement
        // is refused: a look-up through the fault layer would take the server offline and call the id unknown.
        let scenario = try EngineTestSupport.parse(#"""
            {"name": "bypass", "report": "default",
             "faults": [{"contract": "uploadPhoto", "calls": [1], "fault": {"kind": "status", "status": 500}},
                        {"contract": "getAnnouncement", "fault": {"kind": "refuse"}}],
             "steps": [{"action": "submit", "expect": {"outcome": "failure", "alert": {"kind": "generic"},
                         "journal": {"order": ["createAnnouncement", "uploadPhoto"], "authUserIsCreatedId": true}}},
                       {"action": "retry", "expect": {"outcome": "success", "journal": {"order": ["createAnnouncement", "uploadPhoto"]}}}]}
            """#)
        let report = try await EngineTestSupport.run([scenario], driver: PetSpotClientDriver(), jobs: 1)
        let result = try #require(report.results.first)
        #expect(result.status == .passed, "\(result.failure?.message ?? "")")
    }
}
