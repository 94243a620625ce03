import ContractKit
import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// A wrong alert text no longer hides whether Try Again, the inputs and the request order are right: every failed
/// expectation of every step is reported, in the console, JUnit and JSON, the first as the headline.
@Suite struct EveryDeviationTests {
    /// Rewords every alert and shows the previous screen's name: wrong in every failure step, right in its requests.
    struct RewordsAndMislabels: ClientDriver {
        var description: String { "broken: rewords alerts, wrong screen name" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            Rewriting(inner: try await PetSpotClientDriver().open(context)) { _, observation in
                var o = observation
                if let alert = o.alert {
                    o.alert = ObservedAlert(kind: alert.kind, message: "Oops!")
                    o.screen = "contactDetails"
                }
                return o
            }
        }
    }

    @Test func everyFailedStepIsReportedInEveryFormat() async throws {
        let scenario = try EngineTestSupport.scenario("two-failures-then-success.json")
        let report = try await EngineTestSupport.run([scenario], driver: RewordsAndMislabels())
        let result = try #require(report.results.first)
        #expect(result.status == .failed)
        #expect(result.failures.map(\.stepNumber) == [1, 2], "both failure steps are checked, and the third (success) too: \(result.failureMessage ?? "")")
        #expect(result.failures.allSatisfy { f in f.mismatches.contains { $0.subject == "alert message" } })
        #expect(result.failure?.stepNumber == 1, "the first stays the headline")

        let console = ConsoleReporter.line(for: result)
        #expect(console.contains("2 steps failed"), "\(console)")
        #expect(console.contains("step 1 (submit)") && console.contains("step 2 (retry)"), "\(console)")
        #expect(console.contains("alert message: expected \"Something went wrong. Please try again later.\", got \"Oops!\""))

        let junit = JUnitReporter.document(report)
        #expect(junit.contains("step 1 (submit)") && junit.contains("step 2 (retry)"), "\(junit)")
        #expect(junit.contains("message=\"step 1 (submit): "), "the JUnit headline is the first failure")

        let json = JSONReporter.document(report)
        let failures = json["results"]?.arrayValue?.first?["failures"]?.arrayValue ?? []
        #expect(failures.count == 2)
        #expect(failures.map { $0["step"]?.intValue } == [1, 2])
        #expect(json["results"]?.arrayValue?.first?["failure"]?["step"]?.intValue == 1)
    }

    @Test func aWrongOutcomeStopsTheScenarioAndSaysWhy() async throws {
        // Succeeds where a failure was expected: the retry steps after it would check another flow.
        struct IgnoresFaults: ClientDriver {
            var description: String { "broken: reports success for everything" }
            func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
                Rewriting(inner: try await PetSpotClientDriver().open(context)) { _, observation in
                    var o = observation
                    o.outcome = .success
                    o.alert = nil
                    return o
                }
            }
        }
        let scenario = try EngineTestSupport.scenario("two-failures-then-success.json")
        let report = try await EngineTestSupport.run([scenario], driver: IgnoresFaults())
        let result = try #require(report.results.first)
        #expect(result.failures.count == 1)
        #expect(result.stepsRun == 1)
        let stopped = result.failure?.stoppedEarly ?? ""
        #expect(stopped.contains("ended in success where failure was expected"), "\(stopped)")
        #expect(ConsoleReporter.line(for: result).contains("later steps not run:"))
        #expect(JSONReporter.document(report)["results"]?.arrayValue?.first?["failure"]?["stoppedEarly"]?.stringValue == stopped)
    }

    @Test func aCheckWithItsOwnRuleExplainsItselfInsteadOfTheStepsReason() {
        let date = Mismatch("sent lastSeenDate of #1", expected: "\"2025-11-01\"", actual: "\"01/11/2025\"", why: SentReportCheck.dateRule)
        let failure = ScenarioFailure(stepNumber: 1, action: "doubleTapContinue", pointer: "/steps/0", mismatches: [date], because: "a double tap submits once")
        #expect(failure.message.contains("why it matters: lastSeenDate is the calendar day the user picked"), "\(failure.message)")
        #expect(!failure.message.contains("a double tap submits once"), "the step's reason does not explain a date: \(failure.message)")
    }
}
