import Foundation
import Testing

@testable import ContractModel
@testable import MockBackend

/// Unseeded request ids come from a stream per thread: they must still look like the real backend's and never repeat.
@Suite struct RequestIDSourceTests {
    @Test func idsFromManyThreadsAreWellFormedAndDistinct() async {
        let perThread = 5_000
        let batches = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread { continuation.resume(returning: (0..<perThread).map { _ in RequestIDSource.next() }) }.start()
                    }
                }
            }
            var all: [[String]] = []
            for await batch in group { all.append(batch) }
            return all
        }
        let ids = batches.flatMap { $0 }
        #expect(ids.count == 4 * perThread)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.wholeMatch(of: /[A-Za-z0-9]{10}/) != nil })
    }

    @Test func anUnseededStoreUsesItAndASeededOneRepeats() {
        let first = RecordStore(seed: 7), second = RecordStore(seed: 7)
        #expect((0..<5).map { _ in first.nextRequestID() } == (0..<5).map { _ in second.nextRequestID() })
        let unseeded = RecordStore(seed: nil)
        #expect(Set((0..<100).map { _ in unseeded.nextRequestID() }).count == 100)
    }
}
