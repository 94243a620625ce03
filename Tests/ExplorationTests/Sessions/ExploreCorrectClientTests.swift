import ContractKit
import Exploration
import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// The reference client passes generated sessions over several seeds, and generation is reproducible.
@Suite("explore with a correct client")
struct ExploreCorrectClientTests {
    /// The verdicts issue's legitimate alternative readings (Tests/ClientDoubles/SeedReadingClients.swift).
    static let readings: [any ClientDriver] = [
        SeedReadingClients.t044Mapping, SeedReadingClients.returnEarlyValidation, SeedReadingClients.cancelFirstButtons,
        SeedReadingClients.titleAndMessage, SeedReadingClients.Accepts200ForUpload(), SeedReadingClients.StopsEarlier(),
        SeedReadingClients.WithoutOptionalActions(), SeedReadingClients.lowerCasesEmailDomain,
    ]

    @Test("the reference client passes every session of several seeds", arguments: [UInt64(1), 7, 2026])
    func referenceClientPasses(_ seed: UInt64) async throws {
        let report = try await ExplorationSupport.explore(PetSpotClientDriver(), seed: seed, budget: .runs(150))
        #expect(report.counterexample == nil, "\(report.counterexample?.failure.message ?? "")")
        #expect(report.sessions == 150)
        #expect(report.exitCode == 0)
    }

    @Test("each legitimate reading of the seeds passes", arguments: Self.readings.indices)
    func readingsPass(_ index: Int) async throws {
        let driver = Self.readings[index]
        let report = try await ExplorationSupport.explore(driver, seed: 11, budget: .runs(120), jobs: 3)
        #expect(report.counterexample == nil, "\(driver.description): \(report.counterexample?.failure.message ?? "")")
    }

    @Test("the default budget reaches every rule of the model")
    func everyRuleReached() async throws {
        let report = try await ExplorationSupport.explore(PetSpotClientDriver(), seed: 1)
        for rule in ModelRule.allCases { #expect((report.rules[rule] ?? 0) > 0, "\(rule.rawValue) never exercised") }
    }

    @Test("the same seed gives the same sessions, another seed others")
    func reproducible() {
        let a = (0..<50).map(SessionGenerator(seed: 5).session)
        let b = (0..<50).map(SessionGenerator(seed: 5).session)
        let c = (0..<50).map(SessionGenerator(seed: 6).session)
        #expect(a == b)
        #expect(a != c)
    }
}
