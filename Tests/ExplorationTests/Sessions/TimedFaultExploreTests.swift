import ContractKit
@testable import Exploration
import Foundation
import ContractModel
import MockBackend
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// `explore` plans outages and quotas: seeded, written as time-based rules, predicted by the model, passed by the reference client.
@Suite("explore: time-based faults")
struct TimedFaultExploreTests {
    static func steps(_ session: Session) throws -> [JSONValue] {
        try ExplorationSupport.runner(PetSpotClientDriver()).model(session, name: "", summary: "").steps.map(\.document)
    }

    @Test("the generator plans outages and quotas, reproducibly per seed, as rules the fault layer parses")
    func generated() throws {
        let sessions = (0..<300).map(SessionGenerator(seed: 1).session)
        let timed = sessions.flatMap(\.faults).filter { $0.timing != nil }
        #expect(timed.contains { if case .outage = $0.timing { true } else { false } })
        #expect(timed.contains { if case .quota = $0.timing { true } else { false } })
        #expect((10...80).contains(timed.count), "about one session in eight: \(timed.count)")
        #expect((0..<300).map(SessionGenerator(seed: 1).session) == sessions)
        for fault in timed {
            let rule = try FaultRule.parseRule(fault.rule, file: "explore")
            #expect(rule.schedule != nil)
            #expect(rule.selector.contract == fault.contract)
        }
    }

    @Test("an upload quota of one: the first submission succeeds, the next upload gets 429 and a generic alert")
    func quotaModel() throws {
        let quota = PlannedFault(.upload, of: SessionForm.default.calls, call: 1, kind: .status(429), timing: .quota(windowSeconds: 60))
        #expect(!quota.covers(call: 1) && quota.covers(call: 2) && quota.covers(call: 9))
        let outage = PlannedFault(.create, of: SessionForm.default.calls, call: 2, kind: .status(503), timing: .outage(seconds: 30))
        #expect(!outage.covers(call: 1) && outage.covers(call: 2) && outage.covers(call: 5))
        let steps = try Self.steps(Session(actions: [.submit, .submit], faults: [outage]))
        #expect(steps[0]["expect"]?["outcome"] == "success")
        #expect(outage.rule["outage"] == ["after": 0, "seconds": 30])
        #expect(outage.rule["calls"] == ["2-"])
        #expect(quota.rule["quota"] == ["limit": 1, "windowSeconds": 60])
    }

    @Test("the reference client passes sessions under an outage and a quota; one that clears the form on Cancel does not")
    func endToEnd() async throws {
        let outage = Session(actions: [.submit, .retry, .cancel, .submit],
                             faults: [PlannedFault(.create, of: SessionForm.default.calls, call: 1, kind: .status(503), timing: .outage(seconds: 30))])
        let good = try await ExplorationSupport.runner(PetSpotClientDriver()).run(outage)
        #expect(good.failure == nil, "\(good.failure?.message ?? "")")
        let bad = try await ExplorationSupport.runner(BrokenClients.ClearsInputsOnCancel()).run(outage)
        #expect(bad.failure?.rule == .inputsSurvive)
        // The create quota admits the first create; the upload fails on its own, so Try Again's create meets the 429.
        let quota = Session(actions: [.submit, .retry],
                            faults: [PlannedFault(.create, of: SessionForm.default.calls, call: 1, kind: .status(429), timing: .quota(windowSeconds: 60)),
                                     PlannedFault(.upload, of: SessionForm.default.calls, call: 1, kind: .status(500))])
        let quotaSteps = try Self.steps(quota)
        #expect(quotaSteps[1]["expect"]?["outcome"] == "failure")
        #expect(quotaSteps[1]["expect"]?["journal"]?["order"] == ["createAnnouncement"])
        let passed = try await ExplorationSupport.runner(PetSpotClientDriver()).run(quota)
        #expect(passed.failure == nil, "\(passed.failure?.message ?? "")")
    }
}
