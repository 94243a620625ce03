import ContractKit
import Foundation
import Logging
import MockBackend

/// The default target: a fresh PetSpotMockBackend per scenario on an ephemeral loopback port, with the scenario's faults and fixtures.
public struct EmbeddedBackendProvider: TargetProvider {
    /// The contracts the backend validates with.
    public let contracts: ContractSet

    /// A provider whose backends validate with `contracts`.
    public init(contracts: ContractSet) {
        self.contracts = contracts
    }

    public var description: String { "embedded mock backend" }

    public func skipReason(for scenario: Scenario) -> String? { nil }

    public func makeTarget(for scenario: Scenario, seed: UInt64?) async throws(TargetError) -> any ScenarioTarget {
        var logger = Logger(label: "spotcheck.run.backend")
        // Per-request and refuse-window lines would drown the report; real problems still show.
        logger.logLevel = .warning
        let options = PetSpotMockBackend.Options(
            contracts: contracts, seed: seed, fixtures: scenario.backend.fixtures, faults: scenario.faultRules, quiet: true,
            // The backend's own tests check its answers against the contracts; here fixtures deliberately hold statuses
            // (ACTIVE, CLOSED) outside the create schema, and the check would only add noise and time.
            checkResponses: false, logger: logger, idleTimeout: .seconds(30))
        do {
            return EmbeddedBackendTarget(backend: try await PetSpotMockBackend.start(options))
        } catch {
            throw TargetError("the embedded mock backend did not start: \(error)")
        }
    }
}

/// One running embedded mock backend.
struct EmbeddedBackendTarget: ScenarioTarget {
    let backend: PetSpotMockBackend

    var baseURL: URL { backend.baseURL }

    func journal() async -> [JournalRecord] {
        backend.journal.entries().map(JournalRecord.init)
    }

    func announcementCount() async -> Int? {
        await backend.announcementCount()
    }

    func replaceFaults(_ rules: [FaultRule]) async throws(TargetError) {
        backend.faults.replaceRules(rules)
        try await ListeningWait.untilAccepting(backend.server, rules: rules)
    }

    func shutdown() async {
        try? await backend.shutdown()
    }
}

extension JournalRecord {
    /// The engine's view of a mock-server journal entry.
    init(_ entry: JournalEntry) {
        self.init(sequence: entry.sequence, method: entry.method, path: entry.path, contract: entry.contract, status: entry.status,
                  authUser: entry.authUser, fault: entry.fault)
    }
}

/// Waits for a server to listen again after a rule change ended a `refuse` window (it re-binds asynchronously).
enum ListeningWait {
    static func untilAccepting(_ server: MockServer, rules: [FaultRule]) async throws(TargetError) {
        // New rules may take the server offline on purpose; then there is nothing to wait for.
        if rules.contains(where: { $0.isUnconditional && $0.fault.kind == "refuse" }) { return }
        for _ in 0..<400 where server.isRefusing {
            try? await Task.sleep(for: .milliseconds(5))
        }
        if server.isRefusing { throw TargetError("the server did not listen again within 2 s after its refuse rule was removed") }
    }
}
