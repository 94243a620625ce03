import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

@Suite struct ProcessDriverTests {
    static func context(stepTimeoutMs: Int = 3000) throws -> ClientContext {
        let scenario = try EngineTestSupport.scenario("happy-path.json")
        return ClientContext(
            baseURL: URL(string: "http://127.0.0.1:9")!, settings: ClientSettings(requestTimeoutMs: 1000, stepTimeoutMs: stepTimeoutMs),
            report: scenario.report, scenarioName: scenario.name)
    }

    static func openError(_ command: String, stepTimeoutMs: Int = 3000) async throws -> DriverError {
        let driver = ProcessDriver(command: command)
        let context = try context(stepTimeoutMs: stepTimeoutMs)
        do throws(DriverError) {
            let session = try await driver.open(context)
            await session.close()
        } catch {
            return error
        }
        Issue.record("the client `\(command)` should have failed to start")
        return DriverError("no error")
    }

    @Test func aCrashFailsWithTheExitStatusAndTheTailOfStderr() async throws {
        let error = try await Self.openError(#"read line; echo "fatal: cannot reach the simulator" >&2; exit 3"#)
        #expect(error.message.contains("closed its stdout before answering \"start\""))
        #expect(error.message.contains("exited with status 3"))
        #expect(error.stderrTail?.contains("fatal: cannot reach the simulator") == true)
        #expect(error.description.contains("client stderr (tail)"))
    }

    @Test func aNonJSONLineFailsQuotingTheLine() async throws {
        let error = try await Self.openError(#"read line; echo "booting emulator..." >&2; echo "ready!"; cat >/dev/null"#)
        #expect(error.message.contains("not JSON"))
        #expect(error.message.contains("ready!"))
        #expect(error.stderrTail?.contains("booting emulator") == true)
    }

    @Test func silenceFailsAfterTheStepTimeout() async throws {
        let error = try await Self.openError("read line; cat >/dev/null", stepTimeoutMs: 200)
        #expect(error.message == "the client did not answer \"start\" within 200 ms")
    }

    @Test func anAnswerToTheWrongRequestIsRejected() async throws {
        let error = try await Self.openError(#"read line; echo '{"id": 7, "outcome": "ready"}'; cat >/dev/null"#)
        #expect(error.message.contains("answered request 7 while request 1 was pending"))
    }

    @Test func aMissingProgramIsReported() async throws {
        let error = try await Self.openError("/nonexistent/spotcheck-client-\(UUID().uuidString)")
        // The shell may exit before or after the engine writes "start"; either way the status and the shell's complaint show.
        #expect(error.message.contains("exited with status 127"), "\(error)")
        #expect(error.stderrTail?.contains("not found") == true, "\(error)")
    }

    @Test func aScriptedClientIsDrivenThroughStartAndOneAction() async throws {
        // Answers "start", then one "submit" with a fixed failure, echoing each request's id.
        let script = #"""
            read start; echo '{"id": 1, "outcome": "ready"}'
            read submit; echo '{"id": 2, "outcome": "failure", "alert": {"kind": "generic", "message": "Something went wrong. Please try again later."}, "screen": "form", "inputs": {"phone": "1", "email": "e", "reward": ""}}'
            read quit
            """#
        let session = try await ProcessDriver(command: script).open(try Self.context())
        let observation = try await session.perform(.submit)
        await session.close()
        #expect(observation.outcome == .failure)
        #expect(observation.alert == ObservedAlert(kind: "generic", message: "Something went wrong. Please try again later."))
        #expect(observation.inputs == ["phone": "1", "email": "e", "reward": ""])
        #expect(observation.screen == "form")
    }
}

@Suite struct WireProtocolTests {
    @Test func requestsCarryTheActionAndItsArguments() {
        #expect(WireProtocol.request(id: 3, action: .editField(field: "phone", value: "123")).serialized()
                == #"{"id":3,"action":"editField","field":"phone","value":"123"}"#)
        #expect(WireProtocol.request(id: 4, action: .loadDetails(id: "abc")).serialized() == #"{"id":4,"action":"loadDetails","announcementId":"abc"}"#)
        #expect(WireProtocol.request(id: 5, action: .list(latitude: 52.5, longitude: 21, rangeKm: 10)).serialized()
                == #"{"id":5,"action":"list","lat":52.5,"lng":21,"range":10}"#)
    }

    @Test func aNegativeZeroReachesTheClientWithItsSign() throws {
        let line = WireProtocol.line(WireProtocol.request(id: 6, action: .list(latitude: -0.0, longitude: 0, rangeKm: nil)))
        #expect(line == #"{"id":6,"action":"list","lat":-0.0,"lng":0}"# + "\n")
        // What a client's stock parser makes of it: Foundation reads a bare -0 as the integer 0.
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let lat = try #require((parsed["lat"] as? NSNumber)?.doubleValue)
        #expect(lat == 0 && lat.sign == .minus)
        // Only the wire keeps it: the server-facing encoding stays JSON.stringify's.
        #expect(JSONValue.number(-0.0).serialized() == "0")
    }

    @Test func startCarriesBaseURLTimeoutAndTheReportWithItsPhoto() throws {
        let scenario = try EngineTestSupport.scenario("happy-path.json")
        let context = ClientContext(baseURL: URL(string: "http://127.0.0.1:1234")!, settings: ClientSettings(requestTimeoutMs: 1000),
                                    report: scenario.report, scenarioName: "s")
        let start = WireProtocol.startRequest(id: 1, context: context)
        #expect(start["action"] == "start")
        #expect(start["baseURL"] == "http://127.0.0.1:1234")
        #expect(start["timeoutMs"] == 1000)
        #expect(start["report"]?["phone"] == "+48 123-456-789")
        #expect(start["report"]?["photo"]?["base64"]?.stringValue.flatMap { Data(base64Encoded: $0) } == scenario.report.photo?.bytes)
    }

    @Test func observationsSurviveARoundTrip() throws {
        let observation = ClientObservation(
            outcome: .success, managementPassword: "123456", inputs: ["phone": "1", "email": "", "reward": "r"], screen: "summary",
            details: ObservedDetails(state: "loaded", presentation: ["status": "FOUND"]), listedIDs: ["a", "b"])
        let line = WireProtocol.answer(id: 9, observation: observation).serialized()
        let decoded = try WireProtocol.observation(from: try WireProtocol.decodeAnswer(line, expectedID: 9))
        #expect(decoded == observation)
    }

    @Test func causeButtonsAndAnalyticsSurviveARoundTrip() throws {
        let observation = ClientObservation(
            outcome: .failure, alert: ObservedAlert(kind: "noConnection", message: "m", buttons: ["Try Again", "Cancel"]), screen: "form",
            cause: ObservedCause(kind: .urlError, domain: "NSURLErrorDomain", code: -1004), analytics: [])
        let line = WireProtocol.answer(id: 3, observation: observation).serialized()
        #expect(line.contains(#""cause":{"kind":"urlError","domain":"NSURLErrorDomain","code":-1004}"#), "\(line)")
        #expect(try WireProtocol.observation(from: try WireProtocol.decodeAnswer(line, expectedID: 3)) == observation)
        #expect(WireProtocol.request(id: 4, action: .doubleTapContinue).serialized() == #"{"id":4,"action":"doubleTapContinue"}"#)
    }

    @Test func badCausesAreDriverErrorsNamingTheKinds() {
        #expect(throws: DriverError.self) { try WireProtocol.observation(from: ["id": 1, "outcome": "failure", "cause": ["kind": "network"]]) }
        #expect(throws: DriverError.self) { try WireProtocol.observation(from: ["id": 1, "outcome": "failure", "cause": ["kind": "urlError"]]) }
        #expect(throws: DriverError.self) { try WireProtocol.observation(from: ["id": 1, "outcome": "failure", "cause": ["kind": "transport", "reason": "gone"]]) }
        do {
            _ = try WireProtocol.observation(from: ["id": 1, "outcome": "failure", "cause": ["kind": "network"]])
        } catch {
            #expect(error.message.contains("one of urlError, transport, httpStatus, decoding, other"))
        }
    }

    @Test func badAnswersAreDriverErrors() {
        #expect(throws: DriverError.self) { try WireProtocol.decodeAnswer("[1]", expectedID: 1) }
        #expect(throws: DriverError.self) { try WireProtocol.decodeAnswer(#"{"id": 1, "error": "no such action"}"#, expectedID: 1) }
        #expect(throws: DriverError.self) { try WireProtocol.observation(from: ["id": 1, "outcome": "maybe"]) }
    }
}
