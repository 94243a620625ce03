import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

/// The shipped `web-missing-pet` profile (041 and 043): a toast with any text for every cause, one digit for a phone,
/// and judged by it a web client's messages pass where the seeds' table would fail them.
@Suite struct WebMissingPetProfileTests {
    static func profile() throws -> ClientProfile {
        try ClientProfile.load("web-missing-pet", scenariosDirectory: ScenarioLibrary.bundledDirectory)
    }

    static let step = #"""
        {"name": "web failure", "report": "default",
         "steps": [{"action": "submit", "expect": {"outcome": "failure", "alert": {"kind": "generic"}}}]}
        """#

    @Test func itLoadsAndTheContractsAllowEveryRule() throws {
        let profile = try Self.profile()
        #expect(profile.failures.feedback.map(\.kind) == [.toast])
        #expect(profile.failures.affordances.map(\.does) == [.sendAgain])
        let problems = ProfileLinter.lint(profile, contracts: try EngineTestSupport.contracts())
        #expect(problems.isEmpty, "\(problems.map(\.description))")
    }

    @Test func aToastWithItsOwnTextPassesTheWebProfileAndFailsTheSeeds() throws {
        let step = try EngineTestSupport.parse(Self.step).steps[0]
        let o = ClientObservation(outcome: .failure, alert: ObservedAlert(kind: "generic", message: "We could not send your report."), screen: "form",
                                  cause: ObservedCause(kind: .httpStatus, status: 500))
        let web = ExpectationChecker(step: step, profile: try Self.profile()).check(o, expectedInputs: [:])
        #expect(web.isEmpty, "\(web.map(\.description))")
        let seeds = ExpectationChecker(step: step).check(o, expectedInputs: [:]).map(\.description)
        #expect(seeds.contains { $0.contains("alert message: expected \"\(SeedAlertPolicy.Alert.generic.text)\"") }, "\(seeds)")
    }

    @Test func anOfflineDeviceGetsTheErrorMessageNotANoConnectionAlert() throws {
        let step = try EngineTestSupport.parse(Self.step).steps[0]
        let o = ClientObservation(outcome: .failure, alert: ObservedAlert(kind: "noConnection", message: "You are offline"), screen: "form",
                                  cause: ObservedCause(kind: .urlError, code: -1009))
        let text = ExpectationChecker(step: step, profile: try Self.profile()).check(o, expectedInputs: [:]).map(\.description).joined(separator: "\n")
        #expect(text.contains("041 and 043 require the error message"), "\(text)")
        #expect(text.contains("043 FR-009, 043 FR-010"), "\(text)")
    }

    @Test func aPhoneNeedsOnlyOneDigitAndLettersAreIgnored() throws {
        let profile = try Self.profile()
        #expect(SeedInputRules.verdict(field: "phone", value: "call 5", in: profile) == .valid)
        #expect(SeedInputRules.verdict(field: "phone", value: "abc", in: profile).isInvalid)
        #expect(SeedInputRules.verdict(field: "phone", value: "", in: profile) == .valid)
        #expect(SeedInputRules.verdict(field: "phone", value: "call 5") != .valid, "the seeds reject letters")
    }
}
