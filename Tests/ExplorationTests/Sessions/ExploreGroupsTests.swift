import ContractKit
@testable import Exploration
import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// One exploration reports every distinct bug of a client, each shrunk to what its failure needs and confirmed.
@Suite("explore: every distinct bug, each shrunk")
struct ExploreGroupsTests {
    static let bugs: Set<ModelRule> = [.bodyCarriesCurrentInputs, .analyticsOnlyOnSuccess, .detailsPresentation]

    @Test("a client with three unrelated bugs: three groups, each minimal, saved, and failing spotcheck run with the same headline")
    func threeBugs() async throws {
        let driver = ExplorationClientDoubles.ThreeUnrelatedBugs()
        let report = try await ExplorationSupport.explore(driver)
        #expect(Self.bugs.isSubset(of: Set(report.groups.map(\.rule))), "\(report.text)")
        try? report.text.write(toFile: NSTemporaryDirectory() + "spotcheck-three-bugs.txt", atomically: true, encoding: .utf8)
        #expect(report.sessions == 200, "the budget runs to its end after the first counterexample")
        let runner = try ExplorationSupport.runner(driver)
        for rule in Self.bugs {
            let group = try #require(report.groups.first { $0.rule == rule })
            let c = try #require(group.counterexample)
            #expect(group.sessions >= 1)
            // Minimal: removing any step's action, any fault or any stored announcement makes the check pass.
            // (A session of one action is minimal in actions: with none the model writes no step.)
            for i in c.shrunk.actions.indices where c.shrunk.actions.count > 1 {
                var fewer = c.shrunk
                fewer.actions.remove(at: i)
                let outcome = try await runner.run(fewer)
                #expect(!outcome.checks.contains(group.signature), "\(rule): action \(i) of \(c.shrunk.actions) is not needed")
            }
            for i in c.shrunk.faults.indices {
                var fewer = c.shrunk
                fewer.faults.remove(at: i)
                let outcome = try await runner.run(fewer)
                #expect(!outcome.checks.contains(group.signature), "\(rule): fault \(c.shrunk.faults[i]) is not needed")
            }
            #expect(c.shrunk.omittedFields.isEmpty && c.shrunk.lastSeenDate == nil, "\(rule): report variations left")
            #expect(c.shrunk.stored.count <= 1)
            // Step numbers refer to the saved file: its summary quotes the headline the file itself fails with.
            #expect(group.document["summary"]?.stringValue?.hasSuffix("First failure: \(group.headline)") == true)
            let (lint, result) = try await ExplorationSupport.replay(c, seed: report.seed, driver: driver)
            #expect(lint.isEmpty, "\(lint.map(\.description))")
            #expect(result.status == .failed)
            #expect(result.failure?.headline == group.headline)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-groups-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = try Explorer.save(report.groups, in: folder)
        #expect(saved.count == report.groups.count)
        #expect(Set(saved.map(\.lastPathComponent)).count == saved.count)
    }

    @Test("--max-failures stops starting sessions once that many checks have failed")
    func maxFailures() async throws {
        var explorer = Explorer(runner: try ExplorationSupport.runner(ExplorationClientDoubles.ThreeUnrelatedBugs()), seed: 1, jobs: 2, budget: .standard)
        explorer.maxFailures = 1
        let report = try await explorer.explore()
        #expect(report.sessions < 200)
        #expect(report.groups.count >= 1)
    }

    @Test("shards split one seeded budget with no overlap and nothing left out")
    func shards() {
        let budget = 20
        var seen: [Int] = []
        for i in 1...3 {
            let explorer = Explorer(runner: try! ExplorationSupport.runner(PetSpotClientDriver()), seed: 1, jobs: 1, budget: .runs(budget),
                                    shard: Shard(index: i, count: 3))
            seen += (0..<budget).map(explorer.index).filter { $0 < budget }
        }
        #expect(seen.sorted() == Array(0..<budget))
    }

    @Test("reports of several shards merge into one: sessions added, groups joined by check with their counts summed")
    func merge() throws {
        func group(_ index: Int, _ sessions: Int) -> FailureGroup {
            FailureGroup(signature: "analytics-only-on-success: analytics events", rule: .analyticsOnlyOnSuccess, headline: "step 1 (submit): analytics events: expected none",
                         message: "m", sessions: sessions, seed: 1, sessionIndex: index, document: ["name": "x"], originalSteps: 4, shrunkSteps: 1, shrinkRuns: 9)
        }
        var a = ExplorationReport(seed: 1, client: "c", sessions: 10, steps: 40, rules: [.inputsSurvive: 5], duration: .seconds(2))
        a.groups = [group(7, 2)]
        a.shard = Shard(index: 1, count: 2)
        var b = ExplorationReport(seed: 1, client: "c", sessions: 10, steps: 30, rules: [.inputsSurvive: 3], duration: .seconds(3))
        b.groups = [group(2, 1)]
        b.slowMachineSessions = 1
        let readBack = try #require(ExplorationReport(json: try JSONValue(parsing: Data(a.json.serialized().utf8))))
        #expect(readBack.groups.count == 1 && readBack.shard == a.shard)
        let merged = ExplorationReport.merged([readBack, b])
        #expect(merged.sessions == 20 && merged.steps == 70 && merged.rules[.inputsSurvive] == 8)
        #expect(merged.groups.count == 1)
        #expect(merged.groups.first?.sessions == 3)
        #expect(merged.groups.first?.sessionIndex == 2, "the lowest session represents the group")
        #expect(merged.slowMachineSessions == 1)
        #expect(a.junit.contains("shard 1 of 2") && !b.junit.contains("shard"), "each runner's suite has its own name")
    }
}
