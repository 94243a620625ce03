import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// The violation log keeps the newest items in order once full, and its totals keep counting.
@Suite struct ViolationLogTests {
    private func entry(_ sequence: Int) -> JournalEntry {
        var e = JournalEntry(time: Date(), method: "GET", path: "/\(sequence)", contract: nil, status: 404, authUser: nil,
                             rule: nil, fault: nil, durationMs: 0)
        e.sequence = sequence
        e.violations = [ExchangeViolation(contract: nil, pointer: "request", expected: "a documented endpoint",
                                          got: "undocumented: GET /\(sequence)", side: .client)]
        return e
    }

    @Test func aFullLogDropsTheOldestAndKeepsOrder() {
        let log = ViolationLog(limit: 3)
        for sequence in 1...5 { log.add(entry(sequence)) }
        #expect(log.items.map(\.sequence) == [3, 4, 5])
        #expect(log.totals.violations == 5 && log.totals.undocumented == 5)
        #expect(log.json()["totals"]?["dropped"] == 2)
        #expect(log.json()["violations"]?.arrayValue?.compactMap { $0["sequence"]?.intValue } == [3, 4, 5])
    }
}
