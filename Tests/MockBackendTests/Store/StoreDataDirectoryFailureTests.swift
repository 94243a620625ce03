import Foundation
import NIOCore
import Testing

@testable import ContractModel
@testable import MockBackend

/// A change whose write failed (a full disk, injected through the file-system seam) happened neither in memory nor
/// on disk, and the store recovers by itself once writes succeed again.
@Suite struct StoreDataDirectoryFailureTests {
    typealias T = StoreDataDirectoryTestSupport

    private func withStore(_ body: (RecordStore, FaultyFileSystem, URL) async throws -> Void) async throws {
        let directory = T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fs = FaultyFileSystem()
        let persistence = try StoreDataDirectory.open(directory, fs: fs)
        let store = RecordStore(seed: 1, persistence: persistence)
        try await body(store, fs, directory)
        persistence.close()
    }

    /// What a fresh start reads from the directory.
    private func reopened(_ directory: URL) throws -> [String: String] {
        let persistence = try StoreDataDirectory.open(directory)
        defer { persistence.close() }
        return T.contents(RecordStore(seed: 1, persistence: persistence))
    }

    @Test func aFailedCreateIsNeitherInMemoryNorOnDiskAndTheNextOneSucceeds() async throws {
        try await withStore { store, fs, directory in
            let kept = try #require(await T.create(store, name: "Kept").id)
            let acknowledged = T.contents(store)
            fs.setDiskFull(true)
            let (failedID, failed) = await T.create(store, name: "Lost", chip: "999999999999999")
            #expect(failed)
            #expect(T.contents(store) == acknowledged)
            #expect(store.primaryRecordJSON(id: try #require(failedID)) == nil)
            #expect(try reopenedWhileOpen(store, directory) == acknowledged)
            fs.setDiskFull(false)
            // No sticky failure: the same microchip number is free, and the create is saved.
            let (again, againFailed) = await T.create(store, name: "Later", chip: "999999999999999")
            #expect(!againFailed && again != nil)
            #expect(store.primaryRecordJSON(id: kept) != nil)
            #expect(T.contents(store).count == 2)
        }
    }

    @Test func aFailedUploadLeavesNoPhotoUrlAndNoPhotoFile() async throws {
        try await withStore { store, fs, directory in
            let id = try #require(await T.create(store).id)
            let before = T.contents(store)
            let photos = directory.appendingPathComponent(StoreDataDirectory.photosName)
            fs.setDiskFull(true)
            #expect(!(await T.upload(store, id: id)))
            #expect(T.contents(store) == before)
            #expect(store.photo(id: id) == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: photos.path).isEmpty)
            fs.setDiskFull(false)
            #expect(await T.upload(store, id: id))
            #expect(store.photo(id: id) != nil)
        }
    }

    @Test func aFailedDeleteLeavesTheAnnouncement() async throws {
        try await withStore { store, fs, _ in
            let id = try #require(await T.create(store).id)
            #expect(await T.upload(store, id: id))
            let before = T.contents(store)
            fs.setDiskFull(true)
            #expect(!(await T.delete(store, id: id)))
            #expect(T.contents(store) == before)
            fs.setDiskFull(false)
            #expect(await T.delete(store, id: id))
            #expect(store.count == 0)
        }
    }

    @Test func afterManyFailuresTheDiskHoldsExactlyTheAcknowledgedChanges() async throws {
        let directory = T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fs = FaultyFileSystem()
        let persistence = try StoreDataDirectory.open(directory, fs: fs)
        let store = RecordStore(seed: 1, persistence: persistence)
        var acknowledged = 0
        for round in 0..<12 {
            fs.setDiskFull(round % 3 == 1)
            // Concurrent creates share batches: each either happened (saved) or failed (undone), never in between.
            let results = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 { group.addTask { !(await T.create(store).failed) } }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            acknowledged += results.filter { $0 }.count
            #expect(store.count == acknowledged, "round \(round)")
        }
        fs.setDiskFull(false)
        let memory = T.contents(store)
        persistence.close()
        #expect(try reopened(directory) == memory)
        #expect(memory.count == acknowledged)
    }

    /// What the disk holds while the store still has the directory open: its files read with a fresh reader.
    private func reopenedWhileOpen(_ store: RecordStore, _ directory: URL) throws -> [String: String] {
        let copy = T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: directory, to: copy)
        return try reopened(copy)
    }
}
