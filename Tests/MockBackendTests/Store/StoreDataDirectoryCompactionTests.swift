import Foundation
import NIOCore
import Testing

@testable import ContractModel
@testable import MockBackend

/// Compaction writes the live state as a snapshot and starts a new log; a crash after any step (simulated through
/// the file-system seam: nothing reaches the disk afterwards) leaves the old state or the new one, never neither.
@Suite struct StoreDataDirectoryCompactionTests {
    typealias T = StoreDataDirectoryTestSupport

    /// A store with history: creates, photos (one replaced), a delete, and a reset-free tail.
    private func populate(_ store: RecordStore) async throws -> [String] {
        var ids: [String] = []
        for n in 0..<6 { ids.append(try #require(await T.create(store, name: "Pet \(n)").id)) }
        #expect(await T.upload(store, id: ids[0]))
        #expect(await T.upload(store, id: ids[0], bytes: BundledContractsTestSupport.jpeg))
        #expect(await T.upload(store, id: ids[1]))
        #expect(await T.delete(store, id: ids[2]))
        return ids
    }

    @Test func compactionRoundTripsAndDropsTheHistory() async throws {
        let directory = T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let persistence = try StoreDataDirectory.open(directory)
        let store = RecordStore(seed: 1, limit: 100, persistence: persistence)
        let ids = try await populate(store)
        let live = T.contents(store)
        #expect(persistence.writer.sync { persistence.compactNow() })
        // A change after the compaction goes to the new log.
        #expect(await T.delete(store, id: ids[3]))
        let afterDelete = T.contents(store)
        persistence.close()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files == ["records.1.log", "photos", "snapshot.1.log", StoreDataDirectory.markerName].sorted())
        // The replaced photo's file is gone: only the two live photos remain.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("photos").path).count == 2)
        let reopened = try StoreDataDirectory.open(directory)
        let restored = RecordStore(seed: 1, limit: 100, persistence: reopened)
        #expect(T.contents(restored) == afterDelete)
        #expect(afterDelete.count == live.count - 1)
        // Order (what lists show) survives too.
        #expect(restored.listedRecords().map(\.json) == store.listedRecords().map(\.json))
        reopened.close()
    }

    @Test func aCrashAfterEveryStepLeavesTheOldStateOrTheNewOne() async throws {
        for step in CompactionStep.allCases {
            let directory = T.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let fs = FaultyFileSystem()
            let persistence = try StoreDataDirectory.open(directory, fs: fs)
            let store = RecordStore(seed: 1, persistence: persistence)
            _ = try await populate(store)
            let acknowledged = T.contents(store)
            fs.die(after: step)
            let committed = persistence.writer.sync { persistence.compactNow() }
            persistence.close()
            let reopened = try StoreDataDirectory.open(directory)
            let restored = RecordStore(seed: 1, persistence: reopened)
            #expect(T.contents(restored) == acknowledged, "crash after \(step.rawValue)")
            let marker = try String(contentsOf: directory.appendingPathComponent(StoreDataDirectory.markerName), encoding: .utf8)
            let switched = CompactionStep.allCases.firstIndex(of: step)! >= CompactionStep.allCases.firstIndex(of: .markerSwitched)!
            #expect(marker.contains(#""generation":1"#) == switched, "crash after \(step.rawValue): \(marker)")
            #expect(committed == switched)
            reopened.close()
            // What the crash left half-done is cleaned at the start: only one generation's files remain.
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            let expected = switched ? ["records.1.log", "photos", "snapshot.1.log", StoreDataDirectory.markerName]
                : [StoreDataDirectory.logName, "photos", StoreDataDirectory.markerName]
            #expect(files == expected.sorted(), "crash after \(step.rawValue)")
        }
    }

    @Test func compactionRunsByItselfOnceTheLogOutgrowsTheSnapshot() async throws {
        let directory = T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let persistence = try StoreDataDirectory.open(directory, compaction: .init(minimumLogBytes: 2000, snapshotRatio: 2))
        let store = RecordStore(seed: 1, persistence: persistence)
        var live: [String] = []
        for n in 0..<60 {
            let id = try #require(await T.create(store, name: "Pet \(n)").id)
            if n % 2 == 0 { #expect(await T.delete(store, id: id)) } else { live.append(id) }
        }
        let memory = T.contents(store)
        persistence.close()
        let marker = try String(contentsOf: directory.appendingPathComponent(StoreDataDirectory.markerName), encoding: .utf8)
        #expect(!marker.contains(#""generation":0"#))
        let reopened = try StoreDataDirectory.open(directory)
        #expect(T.contents(RecordStore(seed: 1, persistence: reopened)) == memory)
        #expect(memory.count == live.count)
        reopened.close()
    }
}
