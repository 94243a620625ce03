import ContractKit
import ContractModel
import Foundation
import MockBackend

/// Makes a fresh, isolated target per scenario.
public protocol TargetProvider: Sendable {
    /// A short description for reports, e.g. `embedded mock backend`.
    var description: String { get }

    /// The contracts describing the target's answers (their schemas name a served answer's unusual values).
    var contracts: ContractSet { get }

    /// Why `scenario` cannot run on this kind of target, or `nil` when it can; such scenarios are reported as skipped.
    func skipReason(for scenario: Scenario) -> String?

    /// Starts a target with the scenario's fault rules (and fixtures, where supported).
    func makeTarget(for scenario: Scenario, seed: UInt64?) async throws(TargetError) -> any ScenarioTarget
}
