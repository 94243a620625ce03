import ContractKit
import ContractModel
import Foundation
import MockBackend

/// One running fault proxy; the real server behind it keeps its state across scenarios, which is why state-dependent scenarios are skipped.
struct ProxyTarget: ScenarioTarget {
    let proxy: RunningFaultProxy
    /// The virtual time the proxy's fault rules run in.
    let clock: VirtualFaultClock

    var baseURL: URL { proxy.baseURL }

    func journal() async -> [JournalRecord] {
        proxy.journal.entries().map(JournalRecord.init)
    }

    func exchanges() async -> [JournalEntry] {
        proxy.journal.entries()
    }

    func recordCount() async -> Int? { nil }

    func recordExists(_ id: String, readPath: String?) async -> Bool? {
        // Straight to the real server, not through the proxy: its fault layer must never see the engine's own reads.
        guard let readPath else { return nil }
        let request = HTTPStepRequest(method: "GET", path: readPath)
        guard let answer = try? await RawHTTPClient(timeout: 10).send(request, to: proxy.proxy.target, variables: [:]) else { return nil }
        return answer.status == 200
    }

    func replaceFaults(_ rules: [FaultRule]) async throws(TargetError) {
        proxy.faults.replaceRules(rules)
        try await ListeningWait.untilAccepting(proxy.server, rules: rules)
    }

    func advanceClock(by seconds: Double) async {
        clock.advance(by: seconds)
    }

    func shutdown() async {
        try? await proxy.shutdown()
    }
}
