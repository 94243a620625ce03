import ContractKit
import Exploration
import Foundation
import Testing

@testable import ScenarioEngine

/// Shared set-up for the exploration suites.
enum ExplorationSupport {
    /// The repository's contracts.
    static func contracts() throws -> ContractSet { try bundledContracts.get() }

    /// Loaded once per test process: every suite starting at once and each loading the folder again kept the two cores
    /// busy for over a minute before the first test could finish.
    private static let bundledContracts = Result { () throws(ContractLoadError) in
        try ContractSet.load(from: ContractSet.bundledDirectory)
    }

    /// A session runner for `driver`.
    static func runner(_ driver: any ClientDriver, seed: UInt64 = 1) throws -> SessionRunner {
        SessionRunner(driver: driver, contracts: try contracts(), writer: ScenarioDocument(baseReport: try ScenarioDocument.bundledDefaultReport()), seed: seed)
    }

    /// Explores with the default budget (or `budget`) against `driver`.
    static func explore(_ driver: any ClientDriver, seed: UInt64 = 1, budget: Budget = .standard, jobs: Int = 2, maxFailures: Int? = nil) async throws -> ExplorationReport {
        try await Explorer(runner: try runner(driver, seed: seed), seed: seed, jobs: jobs, budget: budget, maxFailures: maxFailures).explore()
    }

    /// Saves the counterexample into a fresh folder, lints that folder, loads it as `spotcheck run` does and runs it.
    static func replay(_ c: Counterexample, seed: UInt64, driver: any ClientDriver) async throws -> (lint: [LintProblem], result: ScenarioResult) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-explore-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Explorer.save(c, seed: seed, in: folder)
        let lint = ScenarioLinter.lint(directory: folder, contracts: try contracts())
        let library = try ScenarioLibrary.load(from: folder)
        let scenario = try #require(library.scenarios.first)
        let runner = ScenarioRunner(driver: driver, targets: EmbeddedBackendProvider(contracts: try contracts()), seed: seed)
        return (lint, await runner.run(scenario))
    }
}
