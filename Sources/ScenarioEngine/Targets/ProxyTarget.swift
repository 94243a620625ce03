import ContractKit
import Foundation
import MockBackend

/// One running fault proxy; the real server behind it keeps its state across scenarios, which is why state-dependent scenarios are skipped.
struct ProxyTarget: ScenarioTarget {
    let proxy: RunningFaultProxy

    var baseURL: URL { proxy.baseURL }

    func journal() async -> [JournalRecord] {
        proxy.journal.entries().map(JournalRecord.init)
    }

    func announcementCount() async -> Int? { nil }

    func replaceFaults(_ rules: [FaultRule]) async throws(TargetError) {
        proxy.faults.replaceRules(rules)
        try await ListeningWait.untilAccepting(proxy.server, rules: rules)
    }

    func shutdown() async {
        try? await proxy.shutdown()
    }
}
