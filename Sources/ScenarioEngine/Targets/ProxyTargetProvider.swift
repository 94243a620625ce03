import ContractKit
import ContractModel
import Foundation
import MockBackend

/// `--target URL`: a fresh fault proxy per scenario in front of a real server, so fault scenarios still apply.
public struct ProxyTargetProvider: TargetProvider {
    /// The real server.
    public let upstream: URL
    /// The contracts used to name requests in the journal.
    public let contracts: ContractSet

    /// A provider proxying to `upstream`.
    public init(upstream: URL, contracts: ContractSet) {
        self.upstream = upstream
        self.contracts = contracts
    }

    /// The text shown to people.
    public var description: String { "fault proxy in front of \(upstream.absoluteString)" }

    /// Why a scenario cannot run on this target, or `nil`.
    public func skipReason(for scenario: Scenario) -> String? { scenario.proxyIncompatibility }

    /// Starts a fresh target for one scenario.
    public func makeTarget(for scenario: Scenario, seed: UInt64?) async throws(TargetError) -> any ScenarioTarget {
        let clock = VirtualFaultClock()
        do {
            let proxy = try await FaultProxy.start(
                target: upstream, faults: scenario.faultRules, seed: seed, contracts: contracts, quiet: true, timeout: .seconds(30),
                faultClock: clock)
            return ProxyTarget(proxy: proxy, clock: clock)
        } catch {
            throw TargetError("the fault proxy in front of \(upstream.absoluteString) did not start: \(error)")
        }
    }
}
