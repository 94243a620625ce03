import ContractKit
import Dispatch
import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The on-disk home of a persistent mock store (`serve --data-dir`): an append-only log plus one file per photo.
///
/// Layout: `spotcheck-store.json` (the marker naming the format), `announcements.log` (one JSON record per line) and
/// `photos/`. A photo file is written to a temporary name, fsynced and renamed before the log line that names it;
/// log lines are fsynced before a change is acknowledged. A kill can leave only a torn last line (never acknowledged),
/// which loading ignores and cuts off. Writes run on a serial queue that commits every waiting change with one fsync.
public final class StoreDataDirectory: Sendable {
    /// The marker file's name; a directory without it is never written to.
    public static let markerName = "spotcheck-store.json"
    /// The log's name.
    public static let logName = "announcements.log"
    /// The photo folder's name.
    public static let photosName = "photos"
    static let format = "spotcheck-mock-store"
    static let version = 1

    private struct Queue {
        var pending: [StoreChange] = []
        var queued = 0
        var written = 0
        var draining = false
        var failure: String?
        var waiters: [(target: Int, continuation: CheckedContinuation<String?, Never>)] = []
        var closed = false
    }

    /// The directory.
    public let url: URL
    /// The changes found when the directory was opened, oldest first.
    public let restored: [StoreChange]
    private let logFD: Int32
    private let lockFD: Int32
    private let queue = Locked(Queue())
    private let writer = DispatchQueue(label: "spotcheck.store-data-directory")

    private init(url: URL, restored: [StoreChange], logFD: Int32, lockFD: Int32) {
        self.url = url
        self.restored = restored
        self.logFD = logFD
        self.lockFD = lockFD
    }

    deinit {
        closeFiles()
    }

    /// Writes what is queued, then closes the log and releases the directory for another process; later changes fail.
    public func close() {
        writer.sync {}
        closeFiles()
    }

    private func closeFiles() {
        let open = queue.withLock { q -> Bool in
            defer { q.closed = true }
            if q.failure == nil { q.failure = "the data directory was closed" }
            return !q.closed
        }
        guard open else { return }
        posixClose(logFD)
        posixClose(lockFD)
    }

    /// Opens (or creates) a data directory and reads everything it holds.
    ///
    /// A missing or empty directory is initialised; a directory with other files and no marker, a marker of another
    /// format, a log line that cannot be read before the last one, or a photo the log names but that is missing is an
    /// error, and nothing is written. A directory in use by another process is refused too.
    public static func open(_ url: URL) throws(StoreDataDirectoryError) -> StoreDataDirectory {
        let fm = FileManager.default
        let path = url.path
        func fail(_ p: String, _ reason: String) -> StoreDataDirectoryError { StoreDataDirectoryError(path: p, reason: reason) }
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw fail(path, "is a file, not a directory; --data-dir needs a directory (it is created if missing)") }
        } else {
            do { try fm.createDirectory(at: url, withIntermediateDirectories: true) } catch {
                throw fail(path, "cannot create the data directory (\(error.localizedDescription))")
            }
        }
        let contents: [String]
        do { contents = try fm.contentsOfDirectory(atPath: path) } catch {
            throw fail(path, "cannot read the data directory (\(error.localizedDescription))")
        }
        let marker = url.appendingPathComponent(markerName)
        if !contents.contains(markerName) {
            // Only what an interrupted initialisation leaves behind may be there; anything else belongs to someone else.
            let leftovers = contents.filter { !($0 == photosName || $0 == logName || $0.hasPrefix(".\(markerName)")) }
            let logSize = (try? fm.attributesOfItem(atPath: url.appendingPathComponent(logName).path)[.size] as? Int) ?? 0
            let photos = (try? fm.contentsOfDirectory(atPath: url.appendingPathComponent(photosName).path)) ?? []
            guard leftovers.isEmpty, logSize == 0, photos.isEmpty else {
                throw fail(path, "is not a SpotCheck data directory (it holds files but no \(markerName)); it is left untouched. "
                    + "Pick a new or empty directory for --data-dir.")
            }
            try initialise(url)
        }
        let markerData: Data
        do { markerData = try Data(contentsOf: marker) } catch {
            throw fail(marker.path, "cannot read the marker (\(error.localizedDescription))")
        }
        guard let markerValue = try? JSONValue(parsing: markerData), markerValue["format"]?.stringValue == format else {
            throw fail(marker.path, "is not a SpotCheck store marker (expected {\"format\": \"\(format)\", ...}); the directory is left untouched")
        }
        guard markerValue["version"]?.intValue == version else {
            throw fail(marker.path, "has store version \(markerValue["version"].map { $0.serialized() } ?? "none"); this spotcheck reads version \(version)")
        }
        let lockFD = posixOpen(marker.path, O_RDONLY | O_CLOEXEC)
        guard lockFD >= 0 else { throw fail(marker.path, "cannot open the marker (\(String(cString: strerror(errno))))") }
        guard flock(lockFD, LOCK_EX | LOCK_NB) == 0 else {
            posixClose(lockFD)
            throw fail(path, "is in use by another spotcheck process; stop it or pick another --data-dir")
        }
        do throws(StoreDataDirectoryError) {
            let log = url.appendingPathComponent(logName)
            let (changes, goodLength) = try StoreLogReader.read(log: log, photos: url.appendingPathComponent(photosName))
            let logFD = posixOpen(log.path, O_WRONLY | O_CLOEXEC)
            guard logFD >= 0 else { throw fail(log.path, "cannot open the log for writing (\(String(cString: strerror(errno))))") }
            // A torn last line was never acknowledged; cut it off so the next record starts on a line of its own.
            guard ftruncate(logFD, off_t(goodLength)) == 0, lseek(logFD, 0, SEEK_END) >= 0, fsync(logFD) == 0 else {
                posixClose(logFD)
                throw fail(log.path, "cannot prepare the log for appending (\(String(cString: strerror(errno))))")
            }
            return StoreDataDirectory(url: url, restored: changes, logFD: logFD, lockFD: lockFD)
        } catch {
            posixClose(lockFD)
            throw error
        }
    }

    /// Creates the photo folder and the empty log, then the marker last, so a marker always means a complete directory.
    private static func initialise(_ url: URL) throws(StoreDataDirectoryError) {
        let photos = url.appendingPathComponent(photosName)
        do {
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            try DurableFile.write([], to: url.appendingPathComponent(logName))
            let marker = JSONValue.object(["format": .string(format), "version": .number(Double(version))])
            try DurableFile.write(Array((marker.serialized() + "\n").utf8), to: url.appendingPathComponent(markerName))
        } catch {
            throw StoreDataDirectoryError(path: url.path, reason: "cannot initialise the data directory (\(error))")
        }
    }

    // MARK: Writing

    /// Queues a change for the log; called under the store's lock, so it only appends to a list.
    func record(_ change: StoreChange) {
        let start = queue.withLock { q -> Bool in
            q.pending.append(change)
            q.queued += 1
            if q.draining { return false }
            q.draining = true
            return true
        }
        if start { writer.async { self.drain() } }
    }

    /// Returns once every change queued before the call is fsynced; throws when the disk refused a write.
    public func waitUntilDurable() async throws(StoreDataDirectoryError) {
        let target = queue.withLock { $0.queued }
        let failure: String? = await withCheckedContinuation { continuation in
            let now: String?? = queue.withLock { q in
                if let failure = q.failure { return .some(failure) }
                if q.written >= target { return .some(nil) }
                q.waiters.append((target, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
        if let failure { throw StoreDataDirectoryError(path: url.path, reason: "the change could not be saved: \(failure)") }
    }

    private func drain() {
        while true {
            let batch = queue.withLock { q -> [StoreChange]? in
                if q.pending.isEmpty {
                    q.draining = false
                    return nil
                }
                defer { q.pending = [] }
                return q.pending
            }
            guard let batch else { return }
            var failure: String?
            do { try write(batch) } catch { failure = "\(error)" }
            let ready = queue.withLock { q -> [(CheckedContinuation<String?, Never>, String?)] in
                q.written += batch.count
                if let failure, q.failure == nil { q.failure = failure }
                let result = q.failure
                let (done, waiting) = (q.waiters.filter { result != nil || $0.target <= q.written },
                                       q.waiters.filter { result == nil && $0.target > q.written })
                q.waiters = waiting
                return done.map { ($0.continuation, result) }
            }
            for (continuation, result) in ready { continuation.resume(returning: result) }
        }
    }

    private func write(_ batch: [StoreChange]) throws(DurableFile.Failure) {
        var lines: [UInt8] = []
        var wrotePhoto = false
        let photos = url.appendingPathComponent(Self.photosName)
        for change in batch {
            switch change {
            case .put(let id, let json, let password, let created):
                lines += StoreLogReader.line(["op": "put", "id": .string(id), "password": .string(password), "created": .bool(created)],
                                             announcement: json)
            case .photo(let id, let photo, let json):
                let name = "\(id)-\(UUID().uuidString.prefix(8).lowercased()).\(photo.type.fileExtension)"
                try DurableFile.write(Array(photo.bytes.readableBytesView), to: photos.appendingPathComponent(name), syncDirectory: false)
                wrotePhoto = true
                lines += StoreLogReader.line(["op": "photo", "id": .string(id), "file": .string(name)], announcement: json)
            case .delete(let id):
                lines += StoreLogReader.line(["op": "delete", "id": .string(id)], announcement: nil)
            case .reset:
                lines += StoreLogReader.line(["op": "reset"], announcement: nil)
            }
        }
        // The photo files' names must be durable before a log line can point at them.
        if wrotePhoto { try DurableFile.syncDirectory(photos) }
        try DurableFile.append(lines, to: logFD, path: url.appendingPathComponent(Self.logName).path)
    }
}

/// `open(2)`, reachable from inside `StoreDataDirectory`, whose own `open` would shadow it.
private func posixOpen(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags)
}

/// `close(2)`, reachable from inside `StoreDataDirectory`, whose own `close` would shadow it.
private func posixClose(_ fd: Int32) {
    _ = close(fd)
}
