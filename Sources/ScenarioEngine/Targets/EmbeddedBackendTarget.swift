import ContractKit
import Foundation
import Logging
import MockBackend

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
