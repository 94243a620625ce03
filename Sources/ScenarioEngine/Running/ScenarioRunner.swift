import ContractKit
import ContractModel
import Foundation

/// Runs one scenario in isolation: a fresh target, a fresh client, the steps in order, checking every expectation of every step.
public struct ScenarioRunner: Sendable {
    /// The client under check.
    public let driver: any ClientDriver
    /// Where scenarios run.
    public let targets: any TargetProvider
    /// The run's seed, used when a scenario names none.
    public let seed: UInt64?
    /// Known server defects that excuse an http step's mismatch; set for `run --target`, empty for the mock.
    public var knownDefects: [KnownDefect] = []
    /// Whether a failed result carries the target's exchanges (for a HAR per failed scenario); off, nothing is kept.
    public var keepsFailedExchanges = false
    /// The client profile whose rules judge every step (`--profile`); the bundled default unless set.
    public var profile: ClientProfile = .bundledDefault

    /// A runner with this driver, target provider and seed.
    public init(driver: any ClientDriver, targets: any TargetProvider, seed: UInt64? = nil) {
        self.driver = driver
        self.targets = targets
        self.seed = seed
    }

    /// Runs `scenario` and reports how it went; never throws: every problem becomes a failed result. A failure after an
    /// unplanned client time-out is run again with the deadlines raised (SlowMachineRetry).
    public func run(_ scenario: Scenario) async -> ScenarioResult {
        let first = await runOnce(scenario)
        guard first.status == .failed, !first.unplannedTimeouts.isEmpty else { return first }
        let raised = SlowMachineRetry.raised(scenario)
        let second = await runOnce(raised)
        return second.status == .passed ? SlowMachineRetry.tooSlow(first, raisedTimeoutMs: raised.client.requestTimeoutMs) : first
    }

    /// Runs `scenario` once.
    func runOnce(_ scenario: Scenario) async -> ScenarioResult {
        let clock = ContinuousClock()
        let start = clock.now
        func result(_ status: ScenarioResult.Status, failure: ScenarioFailure? = nil, skip: String? = nil, steps: Int = 0) -> ScenarioResult {
            ScenarioResult(name: scenario.name, file: scenario.displayPath, tags: scenario.tags, status: status,
                           duration: clock.now - start, failure: failure, skipReason: skip, stepsRun: steps)
        }
        if let reason = targets.skipReason(for: scenario) { return result(.skipped, skip: reason) }
        let target: any ScenarioTarget
        do {
            target = try await targets.makeTarget(for: scenario, seed: scenario.backend.seed ?? seed)
        } catch {
            return result(.failed, failure: ScenarioFailure(stepNumber: nil, action: nil, pointer: nil,
                                                            mismatches: [Mismatch("target", expected: "a running \(targets.description)", actual: error.message)]))
        }
        var execution = ScenarioExecution(scenario: scenario, target: target, driver: driver, profile: profile)
        execution.contracts = targets.contracts
        execution.operations = FlowOperations(contracts: targets.contracts, sends: profile.flow.report.sends)
        execution.knownDefects = KnownDefectMatcher(knownDefects)
        await execution.run()
        await execution.session?.close()
        let exchanges = keepsFailedExchanges && !execution.failures.isEmpty ? await target.exchanges() : []
        await target.shutdown()
        var finished: ScenarioResult
        if let failure = execution.failures.first {
            finished = result(.failed, failure: failure, steps: execution.stepsRun)
            finished.failures = execution.failures
            finished.exchanges = exchanges
        } else if let reason = execution.skipReason {
            finished = result(.skipped, skip: reason, steps: execution.stepsRun)
        } else if !execution.sightings.isEmpty {
            finished = result(.knownDefect, steps: execution.stepsRun)
        } else {
            finished = result(.passed, steps: execution.stepsRun)
        }
        finished.knownDefects = execution.sightings
        finished.knownDefectsNotSeen = execution.notSeen
        finished.notes = execution.notes
        finished.readings = execution.readings
        finished.unplannedTimeouts = execution.unplannedTimeouts
        return finished
    }
}
