import ContractKit
import ContractModel
import Foundation
import Logging
import MockBackend

/// The default target: a fresh ContractMock per scenario on an ephemeral loopback port, with the scenario's faults and fixtures.
public struct EmbeddedBackendProvider: TargetProvider {
    /// The contracts the backend validates with.
    public let contracts: ContractSet
    /// Makes each scenario's virtual fault clock (a fresh one at `VirtualFaultClock.scenarioEpoch` by default).
    public var makeClock: @Sendable () -> VirtualFaultClock = { VirtualFaultClock() }

    /// A provider whose backends validate with `contracts`.
    public init(contracts: ContractSet) {
        self.contracts = contracts
    }

    /// The text shown to people.
    public var description: String { "embedded mock backend" }

    /// Why a scenario cannot run on this target, or `nil`.
    public func skipReason(for scenario: Scenario) -> String? { nil }

    /// Starts a fresh target for one scenario.
    public func makeTarget(for scenario: Scenario, seed: UInt64?) async throws(TargetError) -> any ScenarioTarget {
        var logger = Logger(label: "spotcheck.run.backend")
        // Per-request and refuse-window lines would drown the report; real problems still show.
        logger.logLevel = .warning
        let preloaded: [RecordFixture]
        do {
            preloaded = try scenario.backend.inlineFixtures.map { json throws(RecordFixtureError) in try RecordFixture.parse(json, file: "backend.fixtures") } ?? []
        } catch {
            throw TargetError("the scenario's inline fixtures are unusable: \(error)")
        }
        var options = ContractMock.Options(
            contracts: contracts, seed: seed, fixtures: scenario.backend.fixtures, faults: scenario.faultRules, quiet: true,
            // The backend's own tests check its answers against the contracts; here fixtures deliberately hold statuses
            // (ACTIVE, CLOSED) outside the create schema, and the check would only add noise and time.
            checkResponses: false, logger: logger, idleTimeout: .seconds(30))
        options.preloaded = preloaded
        // The judge reads whole JSON bodies from the journal: a report the body parser accepts (a 65,535-character
        // description) and its echo must not be cut at the journal's usual 64 KiB. Uploads stay cut there.
        options.journalBodyLimit = max(CapturedBody.defaultLimit, 2 * contracts.service.bodyParser.limitBytes)
        // Time-based faults run in virtual time: only `advanceClock` steps move it, so a 30 s outage costs no 30 s.
        let clock = makeClock()
        options.faultClock = clock
        do {
            return EmbeddedBackendTarget(backend: try await ContractMock.start(options), clock: clock)
        } catch {
            throw TargetError("the embedded mock backend did not start: \(error)")
        }
    }
}
