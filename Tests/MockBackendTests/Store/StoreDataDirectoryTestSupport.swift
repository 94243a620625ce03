import Foundation
import NIOCore
import Testing

@testable import ContractModel
@testable import MockBackend

/// A file system that can fail (a full disk, partway through a write) or die after a compaction step (a crash: from
/// then on nothing reaches the disk), for the data-directory tests.
final class FaultyFileSystem: StoreFileSystem, @unchecked Sendable {
    // Only the test thread and the directory's serial writer touch the flags, one at a time.
    private let lock = NSLock()
    private var failWrites = false
    private var deadAfter: CompactionStep?
    private var dead = false
    private let real = PosixFileSystem(crashAt: nil)

    /// Makes every write fail with ENOSPC after writing half of its bytes, as a disk filling up mid-record does.
    func setDiskFull(_ full: Bool) { lock.withLock { failWrites = full } }
    /// Makes the file system stop after `step`: no later call reaches the disk, as if the process had been killed.
    func die(after step: CompactionStep) { lock.withLock { deadAfter = step } }

    private func check(_ path: String, _ call: String) throws(DurableFile.Failure) {
        if lock.withLock({ dead }) { throw DurableFile.Failure(path: path, call: "\(call) (after the simulated crash)", code: EIO) }
    }

    func write(_ bytes: [UInt8], to fd: Int32, path: String) throws(DurableFile.Failure) {
        try check(path, "write")
        if lock.withLock({ failWrites }) {
            try real.write(Array(bytes.prefix(bytes.count / 2)), to: fd, path: path)
            throw DurableFile.Failure(path: path, call: "write", code: ENOSPC)
        }
        try real.write(bytes, to: fd, path: path)
    }

    func sync(_ fd: Int32, path: String) throws(DurableFile.Failure) {
        try check(path, "fsync")
        try real.sync(fd, path: path)
    }

    func truncate(_ fd: Int32, path: String, to length: Int) throws(DurableFile.Failure) {
        try check(path, "ftruncate")
        try real.truncate(fd, path: path, to: length)
    }

    func rename(_ from: String, to: String) throws(DurableFile.Failure) {
        try check(to, "rename")
        try real.rename(from, to: to)
    }

    func remove(_ path: String) throws(DurableFile.Failure) {
        try check(path, "unlink")
        try real.remove(path)
    }

    func reached(_ step: CompactionStep) throws(DurableFile.Failure) {
        try check(step.rawValue, "compaction")
        let stop = lock.withLock { () -> Bool in
            if deadAfter == step { dead = true }
            return dead
        }
        if stop { throw DurableFile.Failure(path: step.rawValue, call: "compaction (simulated crash)", code: EIO) }
    }
}

/// Builders for stores over a data directory and for reading a directory's files.
enum StoreDataDirectoryTestSupport {
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-store-\(UUID().uuidString)")
    }

    static func announcement(_ id: String, name: String = "Rex", chip: String? = nil) -> Announcement {
        Announcement(id: id, petName: name, species: "DOG", breed: nil, sex: "MALE", age: nil, description: nil, microchipNumber: chip,
                     locationLatitude: 1, locationLongitude: 2, lastSeenDate: "2025-11-18", email: "a@b.co", phone: nil, photoUrl: nil,
                     status: "MISSING", reward: nil, createdAt: "2025-11-20T12:00:00.000Z", updatedAt: "2025-11-20T12:00:00.000Z")
    }

    /// Creates an announcement and waits for the disk; answers its id, or nil when the write failed.
    static func create(_ store: RecordStore, name: String = "Rex", chip: String? = nil) async -> (id: String?, failed: Bool) {
        let (made, failure) = await store.durably { store.create(microchipNumber: chip, make: { announcement($0, name: name, chip: chip) }) }
        return (made?.id, failure != nil)
    }

    /// Stores a photo and waits for the disk; answers whether it was saved.
    static func upload(_ store: RecordStore, id: String, bytes: [UInt8] = BundledContractsTestSupport.png) async -> Bool {
        let (stored, failure) = await store.durably {
            store.setPhoto(id: id, bytes: bytes, type: .png, updatedAt: "2025-11-21T12:00:00.000Z")
        }
        return stored && failure == nil
    }

    /// Deletes and waits for the disk; answers whether it was saved.
    static func delete(_ store: RecordStore, id: String) async -> Bool {
        let (deleted, failure) = await store.durably { store.delete(id: id) }
        return deleted && failure == nil
    }

    /// Every file in the directory (photos included) with its bytes, to compare a directory before and after.
    static func files(_ directory: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let name = enumerator?.nextObject() as? String {
            let url = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[name] = try Data(contentsOf: url)
            }
        }
        return result
    }

    /// The announcements of a store: id → (JSON, password, photo bytes).
    static func contents(_ store: RecordStore) -> [String: String] {
        var result: [String: String] = [:]
        for stored in store.snapshot().newest {
            let photo = store.photo(id: stored.id).map { $0.bytes.count } ?? -1
            result[stored.id] = "\(stored.json.serialized()) \(stored.secret?.value ?? "") photo:\(photo)"
        }
        return result
    }
}
