import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing

@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// Scenarios with time-based faults run in virtual time: `advanceClock` moves the fault layer's clock, nothing waits.
@Suite struct TimedFaultScenarioTests {
    /// Hands out each scenario's virtual clock and keeps it, so a test can read how far the scenario moved it.
    final class ClockLog: @unchecked Sendable {
        private let lock = NSLock()
        private var made: [VirtualFaultClock] = []

        func make() -> VirtualFaultClock {
            let clock = VirtualFaultClock()
            lock.withLock { made.append(clock) }
            return clock
        }

        var clocks: [VirtualFaultClock] { lock.withLock { made } }
    }

    private func run(_ scenario: Scenario) async throws -> (ScenarioResult, ClockLog) {
        let log = ClockLog()
        var provider = EmbeddedBackendProvider(contracts: try EngineTestSupport.contracts())
        provider.makeClock = { log.make() }
        let runner = ScenarioRunner(driver: PetSpotClientDriver(), targets: provider, seed: 1)
        return (await runner.run(EngineTestSupport.relaxed(scenario)), log)
    }

    @Test func theBundled30SecondOutageScenarioPassesInVirtualTime() async throws {
        let scenario = try EngineTestSupport.scenario("outage-30-seconds-then-back.json")
        let (result, log) = try await run(scenario)
        #expect(result.status == .passed, "\(result.failure?.message ?? "")")
        #expect(result.stepsRun == 5)
        #expect(log.clocks.count == 1)
        // The outage closed because the virtual clock moved 30 s, never the wall clock: no wall-time bound is asserted,
        // since a loaded machine must not fail this test (the run takes about half a second on an idle one).
        #expect(log.clocks.first?.elapsed == 30, "the scenario crossed its outage by moving the virtual clock 30 s")
    }

    @Test func theOutageIsStillOpenWhenTheClockStopsShortOfIt() async throws {
        var json = try JSONValue(parsing: Data(contentsOf: ScenarioLibrary.bundledDirectory.appendingPathComponent("outage-30-seconds-then-back.json")))
        guard case .object(var root) = json, case .array(var steps)? = root["steps"], case .object(var advance) = steps[3] else {
            Issue.record("unexpected scenario shape")
            return
        }
        advance["seconds"] = 19.5
        steps[3] = .object(advance)
        root["steps"] = .array(steps)
        json = .object(root)
        let (result, log) = try await run(try EngineTestSupport.parse(json.serialized(), file: "short.json"))
        #expect(result.status == .failed)
        #expect(result.failure?.stepNumber == 5, "29.5 s into a 30 s outage the last Try Again still meets the 503")
        #expect(log.clocks.first?.elapsed == 29.5)
    }

    @Test func advanceClockParsesAndRejectsBadSeconds() throws {
        let base = #"{"name": "n", "report": "default", "faults": [{"outage": {"seconds": 5}}], "steps": [%@]}"#
        let ok = try EngineTestSupport.parse(base.replacingOccurrences(of: "%@", with: #"{"action": "advanceClock", "seconds": 2.5, "expect": {"journal": {"noRequests": true}}}"#))
        guard case .advanceClock(let seconds) = ok.steps[0].action else {
            Issue.record("not an advanceClock step")
            return
        }
        #expect(seconds == 2.5)
        let cases: [(String, String, String)] = [
            (#"{"action": "advanceClock", "seconds": -3}"#, "/steps/0/seconds", "greater than 0"),
            (#"{"action": "advanceClock", "seconds": 0}"#, "/steps/0/seconds", "greater than 0"),
            (#"{"action": "advanceClock"}"#, "/steps/0/seconds", "seconds"),
            (#"{"action": "advanceClock", "seconds": 1, "ms": 5}"#, "/steps/0/ms", "does not apply"),
            (#"{"action": "advanceClock", "seconds": 1, "expect": {"outcome": "success"}}"#, "/steps/0/expect/outcome", "only takes"),
        ]
        for (step, pointer, fragment) in cases {
            let problems = EngineTestSupport.problems(base.replacingOccurrences(of: "%@", with: step))
            #expect(problems.first?.pointer == pointer, "\(step): \(problems)")
            #expect(problems.first?.message.contains(fragment) == true, "\(step): \(problems)")
        }
        let badRule = EngineTestSupport.problems(#"{"name": "n", "report": "default", "faults": [{"quota": {"limit": 0, "windowSeconds": 5}}], "steps": [{"action": "submit"}]}"#)
        #expect(badRule.first?.pointer == "/faults/0/quota/limit", "\(badRule)")
    }

    @Test func lintFlagsAdvanceClockWithoutATimedRule() throws {
        let plain = try EngineTestSupport.parse(#"{"name": "n", "report": "default", "faults": [{"fault": {"kind": "drop"}}], "steps": [{"action": "advanceClock", "seconds": 5}]}"#)
        let problems = ScenarioLinter.problems(in: plain, knownContracts: nil)
        #expect(problems.map(\.pointer) == ["/steps/0/action"])
        #expect(problems.first?.message.contains("no rule of this scenario has \"outage\", \"quota\" or \"ramp\"") == true)
        let later = try EngineTestSupport.parse(#"{"name": "n", "report": "default", "steps": [{"action": "setFaults", "faults": [{"ramp": {"from": 0, "to": 1, "seconds": 9}}]}, {"action": "advanceClock", "seconds": 5}]}"#)
        #expect(ScenarioLinter.problems(in: later, knownContracts: nil).isEmpty)
    }
}
