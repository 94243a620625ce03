import Testing

@testable import Exploration

/// A shrunk session counts when four of at most eight replays fail the same way, in any order.
@Suite struct ReplayConfirmationTests {
    /// Replays a scripted series (true: this replay failed the same way); returns the failures' replay numbers, or nil,
    /// and how many replays ran.
    private func confirm(_ script: [Bool]) async -> (failures: [Int]?, replays: Int) {
        var replays = 0
        let failures = try? await Explorer.replayUntilConfirmed(needed: 1 + Explorer.confirmations, budget: Explorer.replayBudget) {
            (_: [Int]) throws(ExplorationError) -> Int? in
            replays += 1
            return script[replays - 1] ? replays : nil
        }
        return (failures ?? nil, replays)
    }

    @Test func everyOtherReplayFailingIsConfirmed() async {
        // Four in a row would never come: a bug that misses every other replay on a busy machine is still reported.
        let result = await confirm([false, true, false, true, false, true, false, true])
        #expect(result.failures == [2, 4, 6, 8])
        #expect(result.replays == 8)
    }

    @Test func fourInARowStopsAtFour() async {
        let result = await confirm([true, true, true, true, true, true, true, true])
        #expect(result.failures == [1, 2, 3, 4])
        #expect(result.replays == 4)
    }

    @Test func aFailureTheMachineCausedOnceIsNotConfirmed() async {
        let result = await confirm([true, false, false, false, false, false, false, false])
        #expect(result.failures == nil)
        // After the sixth replay two are left, too few for the three failures still missing.
        #expect(result.replays == 6)
    }

    @Test func noFailingReplayInTheFirstFiveGivesUp() async {
        // After the fifth replay three are left, too few for four failures.
        let result = await confirm([false, false, false, false, false, true, true, true])
        #expect(result.failures == nil)
        #expect(result.replays == 5)
    }
}
