import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// Outage windows, shared quotas and failure ramps in virtual time: a `VirtualFaultClock` moves only when told to.
@Suite struct TimedFaultTests {
    private static let t0 = VirtualFaultClock.scenarioEpoch

    private func decide(_ layer: FaultLayer, contract: String? = nil, path: String = "/") -> FaultDecision? {
        layer.decide(method: "GET", path: path, contract: contract)
    }

    @Test func anOutageAfterTheFirstCallOpensAndClosesAtTheRightInstants() {
        let clock = VirtualFaultClock()
        let rule = FaultRule(name: "down", fault: .status(503), schedule: .outage(OutageWindow(start: .afterFirstCall(seconds: 5), seconds: 30)))
        let layer = FaultLayer(rules: [rule], seed: 1, clock: clock)
        #expect(decide(layer) == nil, "the first call anchors the window and is 5 s before it")
        clock.advance(by: 4.999)
        #expect(decide(layer) == nil)
        clock.advance(by: 0.001)
        let opened = decide(layer)
        #expect(opened?.rule == "down")
        #expect(opened?.fault == .status(503, headers: ["Retry-After": "30"]), "Retry-After says when the window closes")
        clock.advance(by: 29.5)
        #expect(decide(layer)?.fault == .status(503, headers: ["Retry-After": "1"]))
        clock.advance(by: 0.5)
        #expect(decide(layer) == nil, "the window is [opens, opens + seconds): closed at 35 s")
        clock.advance(by: 1000)
        #expect(decide(layer) == nil)
    }

    @Test func anOutageAtAWallClockTimeIgnoresCallsAndKeepsTheRulesOwnRetryAfterAndOtherKinds() {
        let clock = VirtualFaultClock()
        let window = OutageWindow(start: .at(Self.t0 + 60), seconds: 10)
        let layer = FaultLayer(rules: [
            FaultRule(selector: FaultSelector(contract: "uploadPhoto"), fault: .status(502, headers: ["retry-after": "9"]), schedule: .outage(window)),
            FaultRule(selector: FaultSelector(contract: "createAnnouncement"), fault: .refuse(), schedule: .outage(window)),
            FaultRule(selector: FaultSelector(contract: "getAnnouncement"), fault: .drop, schedule: .outage(window)),
        ], seed: 1, clock: clock)
        #expect(decide(layer, contract: "uploadPhoto") == nil)
        clock.advance(by: 62.5)
        #expect(decide(layer, contract: "uploadPhoto")?.fault == .status(502, headers: ["retry-after": "9"]))
        #expect(decide(layer, contract: "createAnnouncement")?.fault == .refuse(ms: 7500), "a refuse without ms lasts until the window closes")
        #expect(decide(layer, contract: "getAnnouncement")?.fault == .drop)
        #expect(decide(layer, contract: "listAnnouncements") == nil)
        clock.advance(by: 7.5)
        #expect(decide(layer, contract: "uploadPhoto") == nil)
    }

    @Test func aSharedQuotaRefusesPastItsLimitWithHeadersAndResetsPerWindow() {
        let clock = VirtualFaultClock()
        let layer = FaultLayer(rules: [FaultRule(name: "2 per minute", fault: .status(429), schedule: .quota(RequestQuota(limit: 2, windowSeconds: 60)))],
                               seed: 1, clock: clock)
        #expect(decide(layer, contract: "createAnnouncement") == nil)
        clock.advance(by: 1)
        #expect(decide(layer, contract: "uploadPhoto") == nil, "shared: the upload uses the same allowance")
        clock.advance(by: 1)
        let refused = decide(layer, contract: "getAnnouncement")
        #expect(refused?.rule == "2 per minute")
        #expect(refused?.fault == .status(429, headers: ["Retry-After": "58", "RateLimit-Limit": "2", "RateLimit-Remaining": "0", "RateLimit-Reset": "58"]))
        clock.advance(by: 57.5)
        #expect(decide(layer)?.fault == .status(429, headers: ["Retry-After": "1", "RateLimit-Limit": "2", "RateLimit-Remaining": "0", "RateLimit-Reset": "1"]))
        clock.advance(by: 0.5)
        #expect(decide(layer) == nil, "60 s after the window opened a new one starts")
        #expect(decide(layer) == nil)
        #expect(decide(layer)?.fault.kind == "status")
    }

    @Test func aPerContractQuotaGivesEachContractItsOwnAllowanceAndKeepsARulesBody() {
        let clock = VirtualFaultClock()
        let rule = FaultRule(fault: .status(429, body: ["error": ["code": "RATE_LIMITED"]], headers: ["RateLimit-Limit": "99"]),
                             schedule: .quota(RequestQuota(limit: 1, windowSeconds: 10, scope: .perContract)))
        let layer = FaultLayer(rules: [rule], seed: 1, clock: clock)
        #expect(decide(layer, contract: "createAnnouncement") == nil)
        #expect(decide(layer, contract: "uploadPhoto") == nil)
        let refused = decide(layer, contract: "createAnnouncement")?.fault
        guard case .status(429, let body, let headers)? = refused else {
            Issue.record("expected a 429, got \(String(describing: refused))")
            return
        }
        #expect(body == ["error": ["code": "RATE_LIMITED"]])
        #expect(headers["RateLimit-Limit"] == "1", "the quota's own headers win over the rule's")
        #expect(headers["RateLimit-Reset"] == "10")
    }

    @Test func refusedRequestsUseUpNothingAndRequestsAnEarlierRuleTookAreNotCounted() {
        let clock = VirtualFaultClock()
        let layer = FaultLayer(rules: [
            FaultRule(calls: [1...1], fault: .drop),
            FaultRule(fault: .status(429), schedule: .quota(RequestQuota(limit: 1, windowSeconds: 10))),
        ], seed: 1, clock: clock)
        #expect(decide(layer)?.fault == .drop)
        #expect(decide(layer) == nil, "call 1 went to the drop rule, so call 2 is the quota's first")
        #expect(decide(layer)?.fault.kind == "status")
        #expect(decide(layer)?.fault.kind == "status")
        clock.advance(by: 10)
        #expect(decide(layer) == nil)
    }

    @Test func aRampRisesLinearlyAndStaysAtItsEnd() {
        let ramp = FailureRamp(from: 0.1, to: 0.5, seconds: 40)
        #expect(ramp.probability(after: 0) == 0.1)
        #expect(abs(ramp.probability(after: 10) - 0.2) < 1e-12)
        #expect(abs(ramp.probability(after: 20) - 0.3) < 1e-12)
        #expect(ramp.probability(after: 40) == 0.5)
        #expect(ramp.probability(after: 400) == 0.5)
        #expect(ramp.probability(after: -5) == 0.1)
    }

    /// How many of `perStep` requests fail at each of `steps` points of virtual time, `every` seconds apart.
    private func rampRun(seed: UInt64, steps: Int = 5, every: Double = 10, perStep: Int = 400) -> [Int] {
        let clock = VirtualFaultClock()
        let rule = FaultRule(seed: seed, fault: .status(503), schedule: .ramp(FailureRamp(from: 0, to: 1, seconds: 40)))
        let layer = FaultLayer(rules: [rule], clock: clock)
        var failures: [Int] = []
        for _ in 0..<steps {
            failures.append((0..<perStep).filter { _ in decide(layer) != nil }.count)
            clock.advance(by: every)
        }
        return failures
    }

    @Test func aRampFailsMoreAsVirtualTimePassesAndRepeatsPerSeed() {
        let run = rampRun(seed: 7)
        #expect(run[0] == 0, "chance 0 at the first call")
        #expect(run[4] == 400, "chance 1 after 40 s")
        // 400 draws at 0.25, 0.5 and 0.75: far more than 8 binomial standard deviations apart would be needed to fail.
        #expect((60...140).contains(run[1]) && (160...240).contains(run[2]) && (260...340).contains(run[3]), "\(run)")
        #expect(rampRun(seed: 7) == run, "the same seed repeats exactly")
        #expect(rampRun(seed: 8) != run, "another seed draws another sequence")
    }

    @Test func timedRulesAreNotStandingRefusalsAndCountersStartAfresh() {
        let clock = VirtualFaultClock()
        let outage = FaultRule(fault: .refuse(), schedule: .outage(OutageWindow(seconds: 5)))
        let layer = FaultLayer(rules: [outage], seed: 1, clock: clock)
        #expect(!outage.isUnconditional)
        #expect(layer.standingRefusal == nil, "a timed refuse waits for its window instead of taking the server offline at once")
        #expect(decide(layer)?.fault == .refuse(ms: 5000))
        clock.advance(by: 6)
        #expect(decide(layer) == nil)
        layer.resetCounters()
        #expect(decide(layer)?.fault == .refuse(ms: 5000), "after a reset the next call anchors a new window")
        #expect(layer.scheduleStatus[0] == "outage: open, 5 s left")
    }

    @Test func theVirtualClockOnlyMovesForward() {
        let clock = VirtualFaultClock()
        clock.advance(by: 30)
        clock.advance(by: -10)
        clock.advance(by: .nan)
        #expect(clock.elapsed == 30)
        #expect(clock.now == Self.t0 + 30)
    }
}
