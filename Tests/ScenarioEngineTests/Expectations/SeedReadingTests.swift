import ContractKit
import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// A correct client that takes any reading the seeds allow passes, and the report names the reading it took.
@Suite struct SeedReadingTests {
    static func results(_ files: [String], driver: any ClientDriver) async throws -> [String: ScenarioResult] {
        try await BrokenClientTests.results(files, driver: driver)
    }

    static func message(_ result: ScenarioResult?) -> String { BrokenClientTests.message(result) }

    @Test func t044MappingPassesEveryConnectionFaultAndNamesItsReading() async throws {
        let files = ["fault-step1-refuse.json", "fault-step2-refuse.json", "fault-step1-reset.json", "fault-step1-stall.json",
                     "fault-step1-drop.json", "fault-step1-truncate.json", "offline-step1-device.json", "fault-step1-500.json"]
        let r = try await Self.results(files, driver: SeedReadingClients.t044Mapping)
        for file in files { #expect(r[file]?.status == .passed, "\(file): \(Self.message(r[file]))") }
        let refused = r["fault-step1-refuse.json"]?.readings ?? []
        #expect(refused.contains { $0.contains("NSURLErrorDomain -1004 (cannot connect to host) and showed generic") && $0.contains("003 T044") }, "\(refused)")
        // Where every seed agrees nothing is a "reading".
        #expect(r["offline-step1-device.json"]?.readings == [], "\(r["offline-step1-device.json"]?.readings ?? [])")
        #expect(r["fault-step1-500.json"]?.readings == [])
    }

    @Test func theReferenceClientNamesTheBroadReading() async throws {
        let r = try await Self.results(["fault-step1-refuse.json"], driver: PetSpotClientDriver())
        #expect(r["fault-step1-refuse.json"]?.status == .passed, "\(Self.message(r["fault-step1-refuse.json"]))")
        #expect(r["fault-step1-refuse.json"]?.readings.contains { $0.contains("showed noConnection") && $0.contains("001 FR-011") } == true)
    }

    @Test func returnEarlyValidationPasses() async throws {
        let r = try await Self.results(["validation-phone-and-email.json"], driver: SeedReadingClients.returnEarlyValidation)
        #expect(r["validation-phone-and-email.json"]?.status == .passed, "\(Self.message(r["validation-phone-and-email.json"]))")
    }

    @Test func accepting200ForTheUploadPasses() async throws {
        let r = try await Self.results(["fault-step2-200-instead-of-201.json", "happy-path.json"], driver: SeedReadingClients.Accepts200ForUpload())
        #expect(r["fault-step2-200-instead-of-201.json"]?.status == .passed, "\(Self.message(r["fault-step2-200-instead-of-201.json"]))")
        #expect(r["happy-path.json"]?.status == .passed)
        let scenario = try EngineTestSupport.scenario("fault-step2-200-instead-of-201.json")
        #expect(scenario.tags.contains("ambiguous-seeds"))
    }

    @Test func cancelFirstButtonsAndTitleWithMessagePass() async throws {
        let files = ["fault-step1-refuse.json", "offline-step1-device.json", "fault-step2-500.json"]
        for driver in [SeedReadingClients.cancelFirstButtons, SeedReadingClients.titleAndMessage] {
            let r = try await Self.results(files, driver: driver)
            for file in files { #expect(r[file]?.status == .passed, "\(driver.description) \(file): \(Self.message(r[file]))") }
        }
    }

    @Test func pinnedButtonOrderIsCheckedWithItsReason() throws {
        let step = try EngineTestSupport.parse(#"""
            {"name": "pinned", "report": "default",
             "steps": [{"action": "submit", "expect": {"outcome": "failure",
               "alert": {"kind": "generic", "buttons": ["Try Again", "Cancel"], "buttonOrder": "the design puts the primary action first"}}}]}
            """#).steps[0]
        let o = ClientObservation(outcome: .failure, alert: ObservedAlert(kind: "generic", message: AlertExpectation.standardMessages["generic"] ?? "", buttons: ["Cancel", "Try Again"]),
                                  screen: "form", cause: ObservedCause(kind: .httpStatus, status: 500))
        let text = ExpectationChecker(step: step).check(o, expectedInputs: [:]).map(\.description).joined(separator: "\n")
        #expect(text.contains("alert buttons: expected \"Try Again\", \"Cancel\" in this order (the design puts the primary action first)"), "\(text)")
    }

    @Test func aTitleThatDoesNotShowTheSeedsTextFails() throws {
        let step = try EngineTestSupport.parse(ReportFixesTests.offline).steps[0]
        let o = ClientObservation(outcome: .failure, alert: ObservedAlert(kind: "noConnection", message: "Check your Wi-Fi", title: "Offline"), screen: "form")
        let text = ExpectationChecker(step: step).check(o, expectedInputs: [:]).map(\.description).joined(separator: "\n")
        #expect(text.contains("alert message: expected \"No connection. Please check your network and try again.\", got title \"Offline\", message \"Check your Wi-Fi\""), "\(text)")
    }

    @Test func refusingAMissingPhotoAtStep2PassesAndAMissingLocationAtStep3Fails() async throws {
        let r = try await Self.results(["validation-missing-photo.json", "step3-no-location.json", "happy-path.json"], driver: SeedReadingClients.StopsEarlier())
        let photo = r["validation-missing-photo.json"]
        #expect(photo?.status == .passed, "\(Self.message(photo))")
        #expect(photo?.readings.contains { $0.contains("stopped the user at step 2 with \"Photo is mandatory\"") && $0.contains("seed 000") } == true, "\(photo?.readings ?? [])")
        let location = Self.message(r["step3-no-location.json"])
        #expect(r["step3-no-location.json"]?.status == .failed)
        #expect(location.contains("seed 004 lets the user clear both coordinates (FR-010)"), "\(location)")
        #expect(!location.contains("screen:"), "a stop is judged as a stop, not as a screen mismatch: \(location)")
        #expect(r["happy-path.json"]?.status == .passed)
    }

    @Test func aDriverWithoutOptionalActionsSkipsThoseScenarios() async throws {
        let r = try await Self.results(["offline-step1-device.json", "list-offline.json", "fault-step1-refuse.json"], driver: SeedReadingClients.WithoutOptionalActions())
        #expect(r["offline-step1-device.json"]?.status == .skipped)
        #expect(r["offline-step1-device.json"]?.skipReason?.contains("does not support the optional action \"deviceOffline\"") == true)
        #expect(r["list-offline.json"]?.status == .skipped)
        #expect(r["fault-step1-refuse.json"]?.status == .passed, "\(Self.message(r["fault-step1-refuse.json"]))")
    }

    @Test func anUnsupportedAnswerInAnUntaggedScenarioFails() async throws {
        var scenario = try EngineTestSupport.scenario("offline-step1-device.json")
        scenario.tags.removeAll { $0 == "optional-protocol" }
        let report = try await EngineTestSupport.run([scenario], driver: SeedReadingClients.WithoutOptionalActions())
        #expect(report.results.first?.status == .failed)
        #expect(report.results.first?.failure?.message.contains("which every driver must support") == true)
    }
}

/// The list screen's errors are not in the seeds: an inline error passes where an alert is expected, and is named.
@Suite struct ListInlineErrorTests {
    @Test func anInlineListErrorIsAsValidAsAnAlert() async throws {
        struct InlineListErrors: ClientDriver {
            var description: String { "reading: inline list errors" }
            func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
                Rewriting(inner: try await PetSpotClientDriver().open(context)) { action, observation in
                    guard case .list = action, observation.alert != nil else { return observation }
                    var o = observation
                    o.alert = nil
                    o.inlineError = "Could not load announcements"
                    return o
                }
            }
        }
        let r = try await SeedReadingTests.results(["list-offline.json"], driver: InlineListErrors())
        #expect(r["list-offline.json"]?.status == .passed, "\(SeedReadingTests.message(r["list-offline.json"]))")
        #expect(r["list-offline.json"]?.readings.contains { $0.contains("instead of an alert") } == true)
    }
}

/// The scenario format and the protocol carry the new readings: lint, parsing and answer decoding.
@Suite struct SeedReadingFormatTests {
    @Test func anOptionalActionWithoutTheTagIsALintProblem() throws {
        let scenario = try EngineTestSupport.parse(#"""
            {"name": "untagged", "report": "default", "steps": [{"action": "deviceOffline"}, {"action": "submit"}]}
            """#)
        let problems = ScenarioLinter.problems(in: scenario, knownContracts: nil)
        #expect(problems.map(\.pointer) == ["/steps/0/action"])
        #expect(problems.first?.message.contains("tag the scenario \"optional-protocol\"") == true)
    }

    @Test func fieldsMayListAlternativeReadingsAndButtonOrderNeedsButtons() throws {
        let scenario = try EngineTestSupport.parse(#"""
            {"name": "both", "report": "default", "steps": [{"action": "submit", "expect": {"outcome": "invalid",
              "fields": [{"phone": "A", "email": "B"}, {"phone": "A"}]}}]}
            """#)
        let checker = ExpectationChecker(step: scenario.steps[0])
        #expect(checker.check(ClientObservation(outcome: .invalid, fieldErrors: ["phone": "A"], screen: "form"), expectedInputs: [:]).isEmpty)
        #expect(checker.check(ClientObservation(outcome: .invalid, fieldErrors: ["phone": "A", "email": "B"], screen: "form"), expectedInputs: [:]).isEmpty)
        let only = checker.check(ClientObservation(outcome: .invalid, fieldErrors: ["email": "B"], screen: "form"), expectedInputs: [:]).map(\.description)
        #expect(only == ["field messages: expected email: \"B\", phone: \"A\" or phone: \"A\", got email: \"B\""], "\(only)")
        let problems = EngineTestSupport.problems(#"""
            {"name": "x", "report": "default", "steps": [{"action": "submit", "expect": {"alert": {"kind": "generic", "buttonOrder": "why"}}}]}
            """#)
        #expect(problems.first?.pointer == "/steps/0/expect/alert/buttonOrder")
    }

    @Test func unsupportedAndStoppedAtAnswersCarryTheirReason() {
        #expect(throws: DriverError("the client cannot perform the optional action \"deviceOffline\"", reason: .unsupported(action: "deviceOffline"))) {
            try WireProtocol.decodeAnswer(#"{"id": 7, "outcome": "unsupported"}"#, expectedID: 7, action: "deviceOffline")
        }
        #expect(throws: DriverError("the app stopped the user at step 2: \"Photo is mandatory\"", reason: .stoppedEarlier(EarlierStop(step: 2, message: "Photo is mandatory")))) {
            try WireProtocol.decodeAnswer(#"{"id": 1, "outcome": "stopped", "stoppedAt": {"step": 2, "message": "Photo is mandatory"}}"#, expectedID: 1)
        }
        #expect(throws: DriverError.self) { try WireProtocol.decodeAnswer(#"{"id": 1, "stoppedAt": {"step": 9}}"#, expectedID: 1) }
        let titled = try? WireProtocol.observation(from: WireProtocol.decodeAnswer(
            #"{"id": 2, "outcome": "failure", "alert": {"kind": "generic", "title": "Something went wrong", "message": "Please try again later."}}"#, expectedID: 2))
        #expect(titled?.alert?.title == "Something went wrong")
        #expect(titled?.alert?.readableTexts.contains("Something went wrong. Please try again later.") == true)
    }

    @Test func anExternalClientStoppingAtStep2PassesTheMissingPhotoScenario() async throws {
        let dir = try EngineTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("client.sh")
        try #"""
            read start
            echo '{"id": 1, "outcome": "stopped", "stoppedAt": {"step": 2, "message": "Photo is mandatory"}}'
            read quit
            """#.write(to: file, atomically: true, encoding: .utf8)
        let r = try await SeedReadingTests.results(["validation-missing-photo.json"], driver: ProcessDriver(command: "/bin/sh \(file.path)"))
        #expect(r["validation-missing-photo.json"]?.status == .passed, "\(SeedReadingTests.message(r["validation-missing-photo.json"]))")
        #expect(r["validation-missing-photo.json"]?.readings.first?.contains("seed 000") == true)
    }
}

/// Done means: a client taking every alternative reading at once passes the whole bundled library.
@Suite struct AllReadingsTogetherTests {
    struct EveryAlternativeReading: ClientDriver {
        var description: String { "reading: T044, return-early validation, Cancel first, title + message, 200 accepted" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            let readings = [SeedReadingClients.t044Mapping, SeedReadingClients.returnEarlyValidation, SeedReadingClients.cancelFirstButtons, SeedReadingClients.titleAndMessage]
            let inner = try await PetSpotClientDriver(makeSubmitter: { api in Lenient200Submitter(api: api) }).open(context)
            return Rewriting(inner: inner) { action, observation in readings.reduce(observation) { $1.rewrite(action, $0) } }
        }
    }

    @Test func theWholeLibraryPasses() async throws {
        let library = try EngineTestSupport.library()
        let report = try await EngineTestSupport.run(library.scenarios, driver: EveryAlternativeReading())
        let failed = report.results.filter { $0.status != .passed }
        #expect(failed.isEmpty, "\(failed.map { "\($0.file): \($0.failureMessage ?? $0.skipReason ?? "")" }.joined(separator: "\n"))")
        #expect(report.results.contains { $0.readings.contains { $0.contains("003 T044") } })
    }
    /// A client that lower-cases only the email's domain passes the mixed-case scenario and the whole library.
    @Test func lowerCasingTheEmailDomainPassesTheLibrary() async throws {
        let r = try await SeedReadingTests.results(["validation-email-mixed-case.json"], driver: SeedReadingClients.lowerCasesEmailDomain)
        #expect(r["validation-email-mixed-case.json"]?.status == .passed, "\(SeedReadingTests.message(r["validation-email-mixed-case.json"]))")
        let library = try EngineTestSupport.library()
        let report = try await EngineTestSupport.run(library.scenarios, driver: SeedReadingClients.lowerCasesEmailDomain)
        #expect(report.passed == library.scenarios.count, "\(LibraryRunTests.describe(report))")
    }
}
