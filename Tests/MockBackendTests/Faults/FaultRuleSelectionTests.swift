import Testing
@testable import ContractModel
@testable import MockBackend

@Suite struct FaultRuleSelectionTests {
    /// The fault kinds for `count` calls of one request shape (nil where no rule applied).
    private func run(_ layer: FaultLayer, _ count: Int, method: String = "POST", path: String = "/api/v1/announcements/1/photos",
                     contract: String? = "uploadPhoto") -> [String?] {
        (0..<count).map { _ in layer.decide(method: method, path: path, contract: contract)?.fault.kind }
    }

    @Test func nthCallAndLists() {
        let layer = FaultLayer(rules: [FaultRule(selector: FaultSelector(contract: "uploadPhoto"), calls: [2...2, 4...4], fault: .stall)])
        #expect(run(layer, 5) == [nil, "stall", nil, "stall", nil])
    }

    @Test func rangesAndOpenRanges() {
        let layer = FaultLayer(rules: [FaultRule(calls: [2...3, 6...Int.max], fault: .drop)])
        #expect(run(layer, 7) == [nil, "drop", "drop", nil, nil, "drop", "drop"])
    }

    @Test func fromEveryAndTimes() {
        let every = FaultLayer(rules: [FaultRule(from: 3, every: 2, fault: .reset)])
        #expect(run(every, 8) == [nil, nil, "reset", nil, "reset", nil, "reset", nil])
        let limited = FaultLayer(rules: [FaultRule(from: 2, times: 2, fault: .reset)])
        #expect(run(limited, 5) == [nil, "reset", "reset", nil, nil])
    }

    @Test func seededProbabilityIsReproducible() {
        let rule = FaultRule(probability: 0.3, seed: 42, fault: .drop)
        let first = run(FaultLayer(rules: [rule]), 200)
        let second = run(FaultLayer(rules: [rule]), 200)
        #expect(first == second)
        let hits = first.compactMap { $0 }.count
        #expect(hits > 20 && hits < 100)
        var other = rule
        other.seed = 43
        #expect(run(FaultLayer(rules: [other]), 200) != first)
        let layerSeeded = FaultRule(probability: 0.5, fault: .drop)
        #expect(run(FaultLayer(rules: [layerSeeded], seed: 9), 100) == run(FaultLayer(rules: [layerSeeded], seed: 9), 100))
    }

    @Test func firstMatchingRuleWins() {
        let layer = FaultLayer(rules: [
            FaultRule(name: "specific", selector: FaultSelector(contract: "uploadPhoto"), calls: [1...1], fault: .status(503)),
            FaultRule(name: "catch-all", fault: .delay(ms: 1)),
        ])
        let first = layer.decide(method: "POST", path: "/p", contract: "uploadPhoto")
        #expect(first == FaultDecision(rule: "specific", fault: .status(503), call: 1))
        let second = layer.decide(method: "POST", path: "/p", contract: "uploadPhoto")
        #expect(second?.rule == "catch-all")
        let unnamed = FaultLayer(rules: [FaultRule(calls: [5...5], fault: .drop), FaultRule(fault: .stall)])
        #expect(unnamed.decide(method: "GET", path: "/", contract: nil)?.rule == "rule 2")
    }

    @Test func callsAreCountedPerSelectorNotPerRule() {
        // "The first upload gets a 503, the second stalls": both rules count the same uploads.
        let layer = FaultLayer(rules: [
            FaultRule(selector: FaultSelector(contract: "uploadPhoto"), calls: [1...1], fault: .status(503)),
            FaultRule(selector: FaultSelector(contract: "uploadPhoto"), calls: [2...2], fault: .stall),
            FaultRule(selector: FaultSelector(contract: "createAnnouncement"), calls: [2...2], fault: .drop),
        ])
        #expect(layer.decide(method: "POST", path: "/a", contract: "createAnnouncement") == nil)
        #expect(layer.decide(method: "POST", path: "/p", contract: "uploadPhoto")?.fault == .status(503))
        #expect(layer.decide(method: "POST", path: "/a", contract: "createAnnouncement")?.fault == .drop)
        #expect(layer.decide(method: "POST", path: "/p", contract: "uploadPhoto")?.fault == .stall)
        #expect(layer.decide(method: "POST", path: "/p", contract: "uploadPhoto") == nil)
    }

    @Test func methodAndPathSelectors() {
        let layer = FaultLayer(rules: [FaultRule(selector: FaultSelector(method: "post", path: "/api/v1/announcements/{id}/photos"), fault: .drop)])
        #expect(layer.decide(method: "POST", path: "/api/v1/announcements/x/photos", contract: nil)?.fault == .drop)
        #expect(layer.decide(method: "GET", path: "/api/v1/announcements/x/photos", contract: nil) == nil)
        #expect(layer.decide(method: "POST", path: "/api/v1/announcements", contract: nil) == nil)
    }

    @Test func resetCountersStartsOver() {
        let layer = FaultLayer(rules: [FaultRule(calls: [1...1], fault: .drop), FaultRule(probability: 0.5, seed: 1, fault: .reset)])
        let before = run(layer, 10)
        layer.resetCounters()
        #expect(run(layer, 10) == before)
        #expect(before.first == "drop")
    }

    @Test func replacingRulesResetsCounters() {
        let layer = FaultLayer(rules: [FaultRule(calls: [2...2], fault: .drop)])
        #expect(run(layer, 1) == [nil])
        layer.replaceRules([FaultRule(calls: [1...1], fault: .stall)])
        #expect(run(layer, 2) == ["stall", nil])
    }

    @Test func standingRefusalIsTheFirstUnconditionalRule() {
        #expect(FaultLayer(rules: [FaultRule(fault: .refuse(ms: nil))]).standingRefusal == .refuse(ms: nil))
        #expect(FaultLayer(rules: [FaultRule(calls: [1...1], fault: .refuse(ms: 5))]).standingRefusal == nil)
        #expect(FaultLayer(rules: [FaultRule(fault: .drop), FaultRule(fault: .refuse())]).standingRefusal == nil)
    }
}
