import ContractKit
import Exploration
import Foundation
import Testing

@testable import ClientDoubles
@testable import ScenarioEngine

/// `explore` with no scenario files finds each bug kind of issue 21 within the default budget, shrinks it to a few
/// steps, and the saved scenario fails under the scenario runner with the same message.
@Suite("explore finds client bugs")
struct ExploreFindsBugsTests {
    static let cases: [(String, any ClientDriver, Set<ModelRule>)] = [
        // The bug kinds of issue 21.
        ("national phone format", ExploreBugClients.rejectsNationalPhone, [.validationMessages]),
        ("plus-addressed email", ExploreBugClients.rejectsPlusEmail, [.validationMessages]),
        ("dot-less email accepted", ExploreBugClients.acceptsDotlessEmail, [.noSendWhileInvalid]),
        ("reward limit in bytes", ExploreBugClients.CountsRewardBytes(), [.rewardLimit]),
        ("reward trimmed", ExploreBugClients.trimsReward, [.bodyCarriesCurrentInputs]),
        ("first attempt's body resent", ExploreBugClients.SendsFirstAttemptBody(), [.bodyCarriesCurrentInputs]),
        ("one field fixed, the other still invalid", ExploreBugClients.ChecksOnlyLastEditedField(), [.noSendWhileInvalid]),
        ("analytics on a failed attempt", ExploreBugClients.AnalyticsOnFailure(), [.analyticsOnlyOnSuccess]),
        ("photo uploaded to the first announcement", ExploreBugClients.UploadsToFirstAnnouncement(), [.passwordOpensPhoto]),
        // Details reads of generated stored announcements (seed 002).
        ("details date with the week-based year", ExploreBugClients.WeekBasedYearDate(), [.detailsPresentation]),
        ("microchip without dashes", ExploreBugClients.MicrochipWithoutDashes(), [.detailsPresentation]),
        // The engine's existing doubles (Tests/ClientDoubles).
        ("every error generic", BrokenClients.MapsEveryErrorToGeneric(), [.alertFitsCause]),
        ("navigates away on failure", BrokenClients.NavigatesAwayOnFailure(), [.stayOnForm]),
        ("clears inputs on Cancel", BrokenClients.ClearsInputsOnCancel(), [.inputsSurvive]),
        ("Try Again re-uploads only", BrokenClients.retriesOnlyStep2, [.twoStepSubmission]),
        ("phone limits off by one", SpecBreakingClients.OwnPhoneRule.offByOne, [.validationMessages, .noSendWhileInvalid]),
        ("phone accepts letters", SpecBreakingClients.OwnPhoneRule.acceptsLetters, [.noSendWhileInvalid]),
        ("reward dropped from the body", SpecBreakingClients.dropsTheReward, [.bodyCarriesCurrentInputs]),
        ("status FOUND sent", SpecBreakingClients.sendsFound, [.bodyCarriesCurrentInputs]),
        ("stale phone sent", SpecBreakingClients.sendsStalePhone, [.bodyCarriesCurrentInputs]),
        ("date as dd/MM/yyyy", SpecBreakingClients.wrongDateFormat, [.bodyCarriesCurrentInputs]),
        ("retries on its own", SpecBreakingClients.RetriesOnItsOwn(), [.noSendWithoutTap]),
        ("double tap submits twice", SpecBreakingClients.SubmitsTwiceOnDoubleTap(), [.twoStepSubmission]),
    ]

    @Test("found, shrunk and replayed", arguments: cases.indices)
    func findsShrinksAndReplays(_ index: Int) async throws {
        let (name, driver, rule) = Self.cases[index]
        // A few distinct failures are enough here (ExploreGroupsTests runs a whole budget); more than one, so a check
        // a busy machine broke once, which confirmation then drops, does not end the search.
        let report = try await ExplorationSupport.explore(driver, maxFailures: 3)
        let group = report.groups.first { rule.contains($0.rule) } ?? report.groups.first
        let c = try #require(group?.counterexample, "\(name): no counterexample in \(report.sessions) sessions:\n\(report.text)")
        #expect(rule.contains(c.failure.rule), "\(name): \(c.failure.rule.rawValue): \(c.failure.headline)")
        #expect(c.steps.shrunk <= 5, "\(name): shrunk only to \(c.steps.shrunk) steps:\n\(c.document.serialized(pretty: true))")
        #expect(c.shrunk.faults.count <= (twoFaults.contains(name) ? 2 : 1), "\(name): \(c.shrunk.faults.count) faults left")
        let (lint, result) = try await ExplorationSupport.replay(c, seed: report.seed, driver: driver)
        #expect(lint.isEmpty, "\(name): \(lint.map(\.description))")
        #expect(result.status == .failed)
        // Same rule, same check, same expectation; what the client did may vary in timing-dependent detail (how many
        // requests an unprompted retry got out within the idle step).
        let steps = try ExplorationSupport.runner(driver).model(c.shrunk, name: "", summary: "").steps
        let replayed = try #require(result.failure.map { SessionFailure($0, steps: steps) })
        #expect(replayed.signature == c.failure.signature, "\(name): replay says \(replayed.headline)")
        if !timingDependent.contains(name) {
            #expect(Self.expectedPart(replayed.headline) == Self.expectedPart(c.failure.headline), "\(name): replay says \(replayed.headline)")
        }
        #expect(result.tags.contains("explored"))
    }

    /// Bugs first found by a double tap after a failed attempt (issue 28's later double taps): the failure's signature is
    /// its outcome (a success where the second fault was due), so the shrinker keeps both faults; shrinking toward the
    /// cause rather than the signature would keep one.
    let twoFaults: Set<String> = ["double tap submits twice"]

    /// Bugs whose step of failure depends on timing (a retry the client starts 300 ms after a failure).
    let timingDependent: Set<String> = ["retries on its own"]

    /// The headline up to what the client did: step, check and expectation.
    static func expectedPart(_ headline: String) -> String {
        headline.range(of: ", got ").map { String(headline[..<$0.lowerBound]) } ?? headline
    }
}
