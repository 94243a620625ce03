import ContractKit
import Exploration
import Foundation
import Testing

@testable import ClientDoubles
@testable import ScenarioEngine

/// The seed rules on the flow that nothing checked before issue 35, each found in a client that breaks only it, with
/// the default budget on seed 1; the saved scenario fails under the scenario runner too.
@Suite("explore checks the flow rules")
struct ExploreFlowRulesTests {
    static let cases: [(String, any ClientDriver, ModelRule)] = [
        ("validates while typing", FlowRuleClients.ValidatesWhileTyping(), .validationOnlyOnContinue),
        ("no analytics after a success through Try Again", FlowRuleClients.NoAnalyticsAfterTryAgain(), .analyticsAfterTryAgain),
    ]

    @Test("found with the default budget on seed 1", arguments: cases.indices)
    func found(_ index: Int) async throws {
        let (name, driver, rule) = Self.cases[index]
        let report = try await ExplorationSupport.explore(driver)
        let found = try #require(report.counterexample, "\(name): no counterexample in \(report.sessions) sessions")
        #expect(found.failure.rule == rule, "\(name): \(found.failure.rule.rawValue): \(found.failure.headline)")
        let (lint, result) = try await ExplorationSupport.replay(found, seed: report.seed, driver: driver)
        #expect(lint.isEmpty, "\(name): \(lint.map(\.description))")
        #expect(result.status == .failed, "\(name): the saved scenario passes")
    }

    @Test func anEditStepExpectsNoFieldError() throws {
        let session = Session(actions: [.edit(field: "phone", value: "12"), .submit], faults: [])
        let steps = SeedModel(startInputs: ["phone": "+48 123-456-789", "email": "owner@example.com", "reward": ""]).steps(for: session)
        let edit = try #require(steps.first)
        #expect(edit.document["expect"]?["fields"] == .object(JSONObject()))
        #expect(edit.rules.contains(.validationOnlyOnContinue))
    }
}
