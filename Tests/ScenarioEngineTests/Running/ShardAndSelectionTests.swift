import Testing

@testable import ScenarioEngine

@Suite struct ShardAndSelectionTests {
    @Test func fnv1aMatchesThePublishedTestVectors() {
        #expect(Shard.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test func parsesOnlyValidShards() {
        #expect(Shard(parsing: "2/8") == Shard(index: 2, count: 8))
        #expect(Shard(parsing: "1/1") == Shard(index: 1, count: 1))
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3", ""] {
            #expect(Shard(parsing: bad) == nil, "\(bad) should be rejected")
        }
    }

    @Test(arguments: [1, 2, 3, 8])
    func shardsPartitionTheLibraryWithoutOverlap(count: Int) throws {
        let scenarios = try EngineTestSupport.library().scenarios
        var seen: [String: Int] = [:]
        for k in 1...count {
            for s in ScenarioSelection(shard: Shard(index: k, count: count)).apply(to: scenarios) {
                seen[s.name, default: 0] += 1
            }
        }
        #expect(seen.count == scenarios.count)
        #expect(seen.values.allSatisfy { $0 == 1 })
    }

    @Test func assignmentDependsOnlyOnTheName() {
        // Fixed expectations: a change here would reshuffle every CI split.
        let shard = Shard(index: 1, count: 2)
        #expect(shard.contains("a") == (UInt64(0xaf63_dc4c_8601_ec8c) % 2 == 0))
        #expect(Shard(index: 1, count: 1).contains("anything"))
    }

    @Test func filtersMatchNameOrFileCaseInsensitively() throws {
        let scenarios = try EngineTestSupport.library().scenarios
        let byName = ScenarioSelection(filters: ["HAPPY PATH"]).apply(to: scenarios)
        #expect(!byName.isEmpty)
        #expect(byName.allSatisfy { $0.name.lowercased().contains("happy path") || $0.displayPath.contains("happy path") })
        let byFile = ScenarioSelection(filters: ["fault-step2-"]).apply(to: scenarios)
        #expect(byFile.count == 11)
    }

    @Test func tagsSelectScenariosCarryingAnyOfThem() throws {
        let scenarios = try EngineTestSupport.library().scenarios
        let selected = ScenarioSelection(tags: ["validation", "cancel"]).apply(to: scenarios)
        #expect(!selected.isEmpty)
        #expect(selected.allSatisfy { $0.tags.contains("validation") || $0.tags.contains("cancel") })
        #expect(selected.count == scenarios.filter { $0.tags.contains("validation") || $0.tags.contains("cancel") }.count)
        #expect(ScenarioSelection(tags: ["no-such-tag"]).apply(to: scenarios).isEmpty)
    }
}
