import ContractKit
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

    public var description: String { "fault proxy in front of \(upstream.absoluteString)" }

    public func skipReason(for scenario: Scenario) -> String? { scenario.proxyIncompatibility }

    public func makeTarget(for scenario: Scenario, seed: UInt64?) async throws(TargetError) -> any ScenarioTarget {
        throw TargetError("the fault proxy is not available in this build")
    }
}
