import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store whose changes a data directory keeps: it lets the writer freeze the state for a snapshot and put the
/// state back to what the disk holds after a failed write.
protocol StoreDataDirectoryOwner: AnyObject, Sendable {
    /// Runs `body` under the owner's lock (no change can happen meanwhile) and answers it with the live state as
    /// snapshot changes (`.clear`, then every record in order).
    func withStateFrozen<T>(_ body: () -> T) -> (live: [StoreChange], result: T)
    /// Under the owner's lock, replaces the state with the changes `read` answers; keeps the state when it answers nil.
    func replaceState(_ read: () -> [StoreChange]?)
}

/// The owner, held weakly: it holds the directory.
struct WeakOwner {
    weak var value: (any StoreDataDirectoryOwner)?
}

/// The tickets of the changes one request made, so it waits for its own changes and learns their fate only.
final class ChangeTickets: Sendable {
    /// The tickets of the running task's request, if it is collecting them.
    @TaskLocal static var current: ChangeTickets?
    private let last = Locked<Int?>(nil)

    /// The highest ticket noted (changes are written in ticket order), nil when the request changed nothing.
    var highest: Int? { last.withLock { $0 } }

    func note(_ ticket: Int) { last.withLock { $0 = max($0 ?? 0, ticket) } }
}

/// The changes waiting for the writer and the fate of those already handled. Tickets count changes from 1 and are
/// resolved in order: every ticket up to `resolved` was either written or is in `failures`.
struct WriteQueue {
    var pending: [StoreChange] = []
    var queued = 0
    var resolved = 0
    var failures: [(tickets: ClosedRange<Int>, reason: String)] = []
    var draining = false
    var waiters: [(ticket: Int, continuation: CheckedContinuation<String?, Never>)] = []
    var closed = false

    /// The failure of `ticket`, nil when it was written.
    func failure(of ticket: Int) -> String? {
        failures.last { $0.tickets.contains(ticket) }?.reason
    }

    /// Settles every ticket up to `through` (written unless `failure`) and answers the waiters that now know their fate.
    mutating func resolve(through: Int, failure: String?) -> [(CheckedContinuation<String?, Never>, String?)] {
        guard through > resolved else { return [] }
        if let failure { failures.append(((resolved + 1)...through, failure)) }
        resolved = through
        // A request waits a few microseconds after its change at most; older failures are no longer asked about.
        if failures.count > 64 { failures.removeFirst(failures.count - 64) }
        let done = waiters.filter { $0.ticket <= resolved }
        waiters.removeAll { $0.ticket <= resolved }
        return done.map { ($0.continuation, self.failure(of: $0.ticket)) }
    }
}

extension StoreDataDirectory {
    /// Connects the store whose changes this directory keeps, and compacts at once when the log is due (or holds
    /// records of an older version, which a compaction upgrades).
    func attach(_ store: any StoreDataDirectoryOwner) {
        owner.withLock { $0.value = store }
        let due = disk.withLock { d in d.layout.version < Self.version || isCompactionDue(d) }
        if due { writer.sync { _ = compactNow() } }
    }

    /// Queues a change for the log; called under the store's lock, so it only appends to a list. Answers its ticket,
    /// which the running request's `ChangeTickets` notes too.
    @discardableResult
    func record(_ change: StoreChange) -> Int {
        let (ticket, start) = queue.withLock { q -> (Int, Bool) in
            q.pending.append(change)
            q.queued += 1
            if q.draining { return (q.queued, false) }
            q.draining = true
            return (q.queued, true)
        }
        ChangeTickets.current?.note(ticket)
        if start { writer.async { self.drain() } }
        return ticket
    }

    /// Returns once the change with `ticket` (default: every change queued so far) is fsynced; throws when it was not
    /// saved, and then it was undone in memory too: an error means the change did not happen.
    public func waitUntilDurable(ticket: Int? = nil) async throws(StoreDataDirectoryError) {
        let target = ticket ?? queue.withLock { $0.queued }
        let failure: String? = await withCheckedContinuation { continuation in
            let now: String?? = queue.withLock { q in
                if q.resolved >= target { return .some(q.failure(of: target)) }
                if q.closed { return .some("the data directory was closed") }
                q.waiters.append((target, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
        if let failure { throw StoreDataDirectoryError(path: url.path, reason: "the change was not saved and did not happen: \(failure)") }
    }

    private func drain() {
        while true {
            let batch = queue.withLock { q -> (changes: [StoreChange], last: Int)? in
                if q.pending.isEmpty {
                    q.draining = false
                    return nil
                }
                defer { q.pending = [] }
                return (q.pending, q.queued)
            }
            guard let batch else { return }
            do throws(DurableFile.Failure) {
                try write(batch.changes)
                settle(through: batch.last, failure: nil)
            } catch {
                recover(from: error)
                continue
            }
            if disk.withLock({ isCompactionDue($0) }) { _ = compactNow() }
        }
    }

    func settle(through ticket: Int, failure: String?) {
        let ready = queue.withLock { $0.resolve(through: ticket, failure: failure) }
        for (continuation, result) in ready { continuation.resume(returning: result) }
    }

    private func write(_ batch: [StoreChange]) throws(DurableFile.Failure) {
        try disk.withLock { d in Result { () throws(DurableFile.Failure) in try write(batch, disk: &d) } }.get()
    }

    private func write(_ batch: [StoreChange], disk d: inout Disk) throws(DurableFile.Failure) {
        if let broken = d.broken { throw DurableFile.Failure(path: url.path, call: "write (the store is unusable: \(broken))", code: EIO) }
        guard d.logFD >= 0 else { throw DurableFile.Failure(path: url.path, call: "write (the data directory was closed)", code: EBADF) }
        let logPath = fileURL(d.layout.logName).path
        if d.truncateNeeded {
            try fs.truncate(d.logFD, path: logPath, to: d.logLength)
            d.truncateNeeded = false
        }
        var lines: [UInt8] = []
        var files = d.photoFiles
        for change in batch {
            var file: String?
            if case .photo(_, let id, let photo, _) = change {
                file = try writePhoto(id: id, photo: photo, disk: &d)
            }
            lines += StoreLogReader.line(for: change, photoFile: file)
            files.apply(change, file: file)
        }
        // The photo files' names must be durable before a record can point at them.
        if !d.uncommittedPhotos.isEmpty { try DurableFile.syncDirectory(photosURL, fs: fs) }
        try DurableFile.append(lines, to: d.logFD, path: logPath, fs: fs)
        d.logLength += lines.count
        d.photoFiles = files
        d.uncommittedPhotos = []
    }

    /// Writes a photo to a new file of its own (never over a file a record names) and answers the file's name.
    func writePhoto(id: String, photo: RecordStore.Photo, disk d: inout Disk) throws(DurableFile.Failure) -> String {
        let name = "\(id)-\(UUID().uuidString.prefix(8).lowercased()).\(photo.type.fileExtension)"
        d.uncommittedPhotos.append(name)
        try DurableFile.write(Array(photo.bytes), to: photosURL.appendingPathComponent(name), fs: fs, syncDirectory: false)
        return name
    }

    /// After a failed write: every change not yet saved fails, the log is cut back to its saved part, the photos
    /// written for it are removed, and the store's state is read back from the disk, so memory and disk agree on
    /// exactly the acknowledged changes. Nothing stays stuck: the next change tries the disk afresh.
    func recover(from failure: DurableFile.Failure) {
        let reason = failure.isNoSpace ? "the disk is full (\(failure))" : "\(failure)"
        var failedThrough = 0
        withReplacedState {
            // Under the store's lock: no change can be queued until the state matches the disk again.
            failedThrough = queue.withLock { q in
                q.pending = []
                return q.queued
            }
            return disk.withLock { d -> [StoreChange]? in
                let logPath = fileURL(d.layout.logName).path
                do throws(DurableFile.Failure) {
                    try fs.truncate(d.logFD, path: logPath, to: d.logLength)
                    d.truncateNeeded = false
                } catch {
                    d.truncateNeeded = true
                }
                for name in d.uncommittedPhotos { try? fs.remove(photosURL.appendingPathComponent(name).path) }
                d.uncommittedPhotos = []
                do throws(StoreDataDirectoryError) {
                    return try readBack(&d)
                } catch {
                    d.broken = "after a failed write the data directory could not be read back: \(error)"
                    return nil
                }
            }
        }
        settle(through: failedThrough, failure: reason)
    }

    /// Runs `read` under the owner's lock and replaces the owner's state with what it answers.
    func withReplacedState(_ read: () -> [StoreChange]?) {
        if let owner = owner.withLock({ $0.value }) { owner.replaceState(read) } else { _ = read() }
    }

    /// The changes the disk holds (the snapshot and the log's saved part), as a fresh start would read them.
    func readBack(_ d: inout Disk) throws(StoreDataDirectoryError) -> [StoreChange] {
        var changes: [StoreChange] = []
        var files = PhotoFileIndex()
        if let snapshotName = d.layout.snapshotName {
            let snapshot = try StoreLogReader.read(fileURL(snapshotName), photos: photosURL, checksums: true, snapshot: true)
            changes = snapshot.changes
            files = snapshot.photoFiles
        }
        let log = try StoreLogReader.read(fileURL(d.layout.logName), photos: photosURL, checksums: d.layout.checksums,
                                          limit: d.logLength, photoFiles: files)
        d.photoFiles = log.photoFiles
        return changes + log.changes
    }
}
