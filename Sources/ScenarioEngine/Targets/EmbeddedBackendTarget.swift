import ContractKit
import ContractModel
import Foundation
import Logging
import MockBackend

/// One running embedded mock backend.
struct EmbeddedBackendTarget: ScenarioTarget {
    let backend: ContractMock
    /// The virtual time the backend's fault rules run in.
    let clock: VirtualFaultClock

    var baseURL: URL { backend.baseURL }

    func journal() async -> [JournalRecord] {
        backend.journal.entries().map(JournalRecord.init)
    }

    func exchanges() async -> [JournalEntry] {
        backend.journal.entries()
    }

    func recordCount() async -> Int? {
        await backend.recordCount()
    }

    func recordExists(_ id: String, readPath: String?) async -> Bool? {
        // Read the store itself: the engine's own look-ups must never meet the scenario's faults.
        backend.backend.store.primaryRecordJSON(id: id) != nil
    }

    func replaceFaults(_ rules: [FaultRule]) async throws(TargetError) {
        backend.faults.replaceRules(rules)
        try await ListeningWait.untilAccepting(backend.server, rules: rules)
    }

    func advanceClock(by seconds: Double) async {
        clock.advance(by: seconds)
    }

    func shutdown() async {
        try? await backend.shutdown()
    }
}

extension JournalRecord {
    /// The engine's view of a mock-server journal entry.
    init(_ entry: JournalEntry) {
        self.init(sequence: entry.sequence, method: entry.method, path: entry.path, contract: entry.contract, status: entry.status,
                  authUser: entry.authUser, fault: entry.fault, query: entry.query,
                  contentType: entry.requestHeaders.first { $0.name.lowercased() == "content-type" }?.value,
                  bodyText: entry.requestBody?.text, bodySize: entry.requestBody?.size ?? 0,
                  errorCode: entry.errorCode, errorField: entry.errorField, responseText: entry.responseBody?.text)
    }
}
