import ContractKit
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The on-disk home of a persistent mock store (`serve --data-dir`): a snapshot, a log of the changes since, and photos.
///
/// Layout: `spotcheck-store.json` (the marker: format, version and the current generation), `snapshot.N.log` (the
/// whole state when generation N began; none in generation 0), `<log>.N.log` (the changes since; `<log>.log` in
/// generation 0; `<log>` is the first collection the contracts declare, as the marker records it) and `photos/`. Every record carries a CRC-32C. A photo file is written,
/// fsynced and its folder fsynced before the record naming it; records are fsynced before a change is acknowledged;
/// a write that fails is cut off again and the store goes back to what the disk holds. Compaction writes generation
/// N+1 beside N and switches by replacing the marker (see `StoreDataDirectory+Compaction.swift`).
public final class StoreDataDirectory: Sendable {
    /// The marker file's name; a directory without it is never written to.
    public static let markerName = "spotcheck-store.json"
    /// The log's stem when no collection names it (`records.log`, `records.1.log`, ...).
    public static let defaultLogStem = "records"
    /// The log's stem in a directory whose marker names none: every store written before the log was named after its
    /// collection used its first collection's (PetSpot's) name, and such a directory is read on, so no data is lost.
    public static let legacyLogStem = "announcements"
    /// The log's name in generation 0 of a directory opened with no collection.
    public static var logName: String { "\(defaultLogStem).log" }
    /// The log's name in generation 0 of a directory whose marker names none (see `legacyLogStem`).
    public static var legacyLogName: String { "\(legacyLogStem).log" }

    /// The stem of the log named after `collection`: its letters, digits, `-` and `_` (the default stem when none is
    /// left, or when the name is one the directory uses for something else).
    public static func logStem(for collection: String?) -> String {
        let kept = String((collection ?? "").unicodeScalars.filter {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }.map(Character.init))
        return kept.isEmpty || kept == "snapshot" ? defaultLogStem : kept
    }
    /// The photo folder's name.
    public static let photosName = "photos"
    static let format = "spotcheck-mock-store"
    /// The store version this spotcheck writes: 3 names each record's collection. Versions 1 (records without
    /// checksums) and 2 (one collection, the first declared) are read and upgraded by a compaction at start.
    static let version = 3

    /// Which files hold the store: everything follows from the generation.
    struct Layout: Equatable {
        var generation: Int
        /// Version 1 directories hold records without checksums.
        var checksums: Bool
        /// The store version the files were written in; an older one is upgraded by a compaction when the store attaches.
        var version = StoreDataDirectory.version
        /// What the log is named after (the collection); the marker records it.
        var logStem = StoreDataDirectory.defaultLogStem
        var logName: String { generation == 0 ? "\(logStem).log" : "\(logStem).\(generation).log" }
        var snapshotName: String? { generation == 0 ? nil : "snapshot.\(generation).log" }
        /// The marker naming this layout.
        var marker: [UInt8] {
            Array((JSONValue.object(["format": .string(format), "version": .number(Double(version)), "generation": .number(Double(generation)),
                                     "log": .string(logStem)])
                .serialized() + "\n").utf8)
        }
    }

    /// When compaction runs: at start and after a write, once the log is larger than both `minimumLogBytes` and
    /// `snapshotRatio` times the snapshot, so the files (and the start time) follow the live data, not the history.
    public struct Compaction: Sendable {
        /// The log never compacts below this size.
        public var minimumLogBytes = 8 << 20
        /// The log compacts once it is this many times the snapshot's size.
        public var snapshotRatio = 2

        /// The defaults, or `SPOTCHECK_COMPACT_MIN_BYTES` and `SPOTCHECK_COMPACT_RATIO` when set (the crash test
        /// compacts every few dozen records; the benchmark turns compaction off).
        public static func fromEnvironment() -> Compaction {
            var compaction = Compaction()
            let environment = ProcessInfo.processInfo.environment
            if let value = environment["SPOTCHECK_COMPACT_MIN_BYTES"].flatMap(Int.init), value >= 0 { compaction.minimumLogBytes = value }
            if let value = environment["SPOTCHECK_COMPACT_RATIO"].flatMap(Int.init), value >= 0 { compaction.snapshotRatio = value }
            return compaction
        }
    }

    /// What only the writer queue (or `open`, before anyone else can see it) touches.
    struct Disk {
        var layout: Layout
        var logFD: Int32
        /// The length of the log's acknowledged, intact part; a failed write is cut back to it.
        var logLength: Int
        var snapshotLength: Int
        /// A cut back that failed; the next write retries it first.
        var truncateNeeded = false
        var photoFiles: PhotoFileIndex
        /// Photo files written for records not yet safely in the log; removed again when the write fails.
        var uncommittedPhotos: [String] = []
        /// The log length at which compaction is next tried (raised after a failed attempt).
        var compactAt: Int
        /// Set when the disk could not even be read back after a failed write: every later change fails.
        var broken: String?
    }

    /// The directory.
    public let url: URL
    /// The changes found when the directory was opened, oldest first (a snapshot's start with `.clear`), until the
    /// store takes them: a long log's changes (photos included) are not kept twice for the life of the server.
    private let restored: Locked<[StoreChange]>
    /// What opening noticed and repaired, for the start output (a torn last record dropped, leftovers removed).
    public let notices: [String]
    let fs: any StoreFileSystem
    let compaction: Compaction
    /// The stem the next generation's log gets: the collection the directory was opened for (an older directory's log
    /// moves to it at its next compaction).
    let logStem: String
    let lockFD: Int32
    let disk: Locked<Disk>
    let queue = Locked(WriteQueue())
    let owner = Locked(WeakOwner())
    let writer = DispatchQueue(label: "spotcheck.store-data-directory")

    var photosURL: URL { url.appendingPathComponent(Self.photosName) }
    func fileURL(_ name: String) -> URL { url.appendingPathComponent(name) }

    private init(url: URL, restored: [StoreChange], notices: [String], fs: any StoreFileSystem, compaction: Compaction, logStem: String,
                 lockFD: Int32, disk: Disk) {
        self.url = url
        self.logStem = logStem
        self.restored = Locked(restored)
        self.notices = notices
        self.fs = fs
        self.compaction = compaction
        self.lockFD = lockFD
        self.disk = Locked(disk)
    }

    deinit {
        closeFiles()
    }

    /// Hands over the changes found when the directory was opened, once; later calls answer none.
    public func takeRestored() -> [StoreChange] {
        restored.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }

    /// Writes what is queued, then closes the log and releases the directory for another process; later changes fail.
    public func close() {
        writer.sync {}
        closeFiles()
    }

    private func closeFiles() {
        let open = queue.withLock { q -> Bool in
            defer { q.closed = true }
            return !q.closed
        }
        guard open else { return }
        disk.withLock { d in
            posixClose(d.logFD)
            d.logFD = -1
        }
        posixClose(lockFD)
    }

    /// Takes the directory's lock, waiting up to a second: a process that just closed it (or a child forked in the
    /// moment before it execs, which holds a copy of the descriptor) lets go within milliseconds, a running server never.
    private static func lockBriefly(_ fd: Int32) -> Bool {
        for attempt in 0..<50 {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK || errno == EINTR, attempt < 49 else { return false }
            usleep(20_000)
        }
        return false
    }

    /// The error for a symlink where the data directory keeps a file of its own.
    static func symlinkError(_ path: String) -> StoreDataDirectoryError {
        StoreDataDirectoryError(path: path, reason: "is a symbolic link; a data directory's files must be its own (a write would "
            + "change the file it points to), so the directory is left untouched. Replace the link with the file itself")
    }

    /// Opens (or creates) a data directory and reads everything it holds.
    ///
    /// A missing or empty directory is initialised. Refused, with nothing written: a directory with other files and no
    /// marker, a marker of another format or a newer version, a symlink for any of the store's files, a complete record
    /// that fails its checksum or cannot be read (named by file, line and byte offset), a photo the store names but that
    /// is missing, and a directory another process holds. Only a torn last record is dropped (and said so in `notices`).
    ///
    /// `collection` names the log of a new directory (`<collection>.log`; nil: `records.log`) and of the next generation
    /// of an existing one; until then an existing directory's log keeps the name its marker records.
    public static func open(_ url: URL, collection: String? = nil, compaction: Compaction = .fromEnvironment()) throws(StoreDataDirectoryError) -> StoreDataDirectory {
        try open(url, fs: PosixFileSystem(), collection: collection, compaction: compaction)
    }

    static func open(_ url: URL, fs: any StoreFileSystem, collection: String? = nil, compaction: Compaction = Compaction()) throws(StoreDataDirectoryError) -> StoreDataDirectory {
        let fm = FileManager.default
        let path = url.path
        func fail(_ p: String, _ reason: String) -> StoreDataDirectoryError { StoreDataDirectoryError(path: p, reason: reason) }
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw fail(path, "is a file, not a directory; --data-dir needs a directory (it is created if missing)") }
        } else {
            do { try fm.createDirectory(at: url, withIntermediateDirectories: true) } catch {
                throw fail(path, "cannot create the data directory: \(error.localizedDescription)")
            }
        }
        // Lock before looking: two processes must never initialise or repair one directory at once.
        let lockFD = posixOpen(path, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard lockFD >= 0 else { throw fail(path, "cannot open the data directory: \(String(cString: strerror(errno)))") }
        guard lockBriefly(lockFD) else {
            posixClose(lockFD)
            throw fail(path, "is in use by another spotcheck process; stop it or pick another --data-dir")
        }
        do throws(StoreDataDirectoryError) {
            let layout = try readOrInitialiseMarker(url, fs: fs, logStem: logStem(for: collection))
            var notices: [String] = []
            let photos = url.appendingPathComponent(photosName)
            guard DurableFile.kind(of: photos.path) == S_IFDIR else {
                if DurableFile.kind(of: photos.path) == S_IFLNK { throw symlinkError(photos.path) }
                throw fail(photos.path, "is missing or not a directory; the data directory is incomplete and left untouched")
            }
            var changes: [StoreChange] = []
            var photoFiles = PhotoFileIndex()
            var snapshotLength = 0
            if let snapshotName = layout.snapshotName {
                let snapshot = try StoreLogReader.read(url.appendingPathComponent(snapshotName), photos: photos, checksums: true, snapshot: true)
                changes = snapshot.changes
                photoFiles = snapshot.photoFiles
                snapshotLength = snapshot.goodLength
            }
            let log = url.appendingPathComponent(layout.logName)
            let logContents = try StoreLogReader.read(log, photos: photos, checksums: layout.checksums, photoFiles: photoFiles)
            changes += logContents.changes
            photoFiles = logContents.photoFiles
            let nextStem = collection == nil ? layout.logStem : logStem(for: collection)
            notices += removeLeftovers(url, layout: layout, stems: [layout.logStem, nextStem], fs: fs)
            let logFD = posixOpen(log.path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
            guard logFD >= 0 else { throw fail(log.path, "cannot open the log for appending: \(String(cString: strerror(errno)))") }
            if let torn = logContents.tornTail {
                // A record without its line end was never acknowledged (the fsync comes after the whole line); cut it
                // off so the next record starts on a line of its own.
                do throws(DurableFile.Failure) {
                    try fs.truncate(logFD, path: log.path, to: torn)
                    try fs.sync(logFD, path: log.path)
                } catch {
                    posixClose(logFD)
                    throw fail(log.path, "cannot cut off a torn last record: \(error)")
                }
                notices.append("\(log.path): dropped a torn last record at byte offset \(torn) ("
                    + "an incomplete write without its line end, from a crash mid-write; it was never acknowledged)")
            }
            let disk = Disk(layout: layout, logFD: logFD, logLength: logContents.goodLength, snapshotLength: snapshotLength,
                            photoFiles: photoFiles, compactAt: 0)
            return StoreDataDirectory(url: url, restored: changes, notices: notices, fs: fs, compaction: compaction, logStem: nextStem,
                                      lockFD: lockFD, disk: disk)
        } catch {
            posixClose(lockFD)
            throw error
        }
    }

    /// The layout the marker names; a directory without a marker is initialised (its log named `logStem`) when it holds
    /// nothing else. A marker naming no log is an older directory's: its log is `legacyLogStem`'s.
    private static func readOrInitialiseMarker(_ url: URL, fs: any StoreFileSystem, logStem: String) throws(StoreDataDirectoryError) -> Layout {
        let path = url.path
        func fail(_ p: String, _ reason: String) -> StoreDataDirectoryError { StoreDataDirectoryError(path: p, reason: reason) }
        let contents: [String]
        do { contents = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw fail(path, "cannot read the data directory: \(error.localizedDescription)")
        }
        let marker = url.appendingPathComponent(markerName)
        if !contents.contains(markerName) {
            // Only what an interrupted initialisation leaves behind may be there; anything else belongs to someone else.
            let logNames = ["\(logStem).log", legacyLogName]
            let leftovers = contents.filter { !($0 == photosName || logNames.contains($0) || $0.hasPrefix(".\(markerName)")) }
            let logsEmpty = logNames.allSatisfy { name in
                let path = url.appendingPathComponent(name).path
                return DurableFile.kind(of: path) != S_IFLNK && ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) == 0
            }
            let photos = (try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(photosName).path)) ?? []
            guard leftovers.isEmpty, logsEmpty, photos.isEmpty else {
                throw fail(path, "is not a SpotCheck data directory (it holds files but no \(markerName)); it is left untouched. "
                    + "Pick a new or empty directory for --data-dir.")
            }
            try initialise(url, fs: fs, logStem: logStem)
        }
        let markerBytes = try DurableFile.read(marker)
        guard let value = try? JSONValue(parsing: markerBytes), value["format"]?.stringValue == format else {
            throw fail(marker.path, "is not a SpotCheck store marker (expected {\"format\": \"\(format)\", ...}); the directory is left untouched")
        }
        switch value["version"]?.intValue {
        case 1:
            return Layout(generation: 0, checksums: false, version: 1, logStem: legacyLogStem)
        case let found? where found == 2 || found == version:
            guard let generation = value["generation"]?.intValue, generation >= 0 else {
                throw fail(marker.path, "names no generation (a whole number); the directory is left untouched")
            }
            var stem = legacyLogStem
            if let log = value["log"] {
                guard let named = log.stringValue, self.logStem(for: named) == named else {
                    throw fail(marker.path, "names the log \(log.serialized()), not a name of letters, digits, - and _; the directory is left untouched")
                }
                stem = named
            }
            return Layout(generation: generation, checksums: true, version: found, logStem: stem)
        default:
            throw fail(marker.path, "has store version \(value["version"].map { $0.serialized() } ?? "none"); this spotcheck reads versions 1 to \(version)")
        }
    }

    /// Creates the photo folder and the empty log, then the marker last, so a marker always means a complete directory.
    private static func initialise(_ url: URL, fs: any StoreFileSystem, logStem: String) throws(StoreDataDirectoryError) {
        let photos = url.appendingPathComponent(photosName)
        let layout = Layout(generation: 0, checksums: true, logStem: logStem)
        do {
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            try DurableFile.write([], to: url.appendingPathComponent(layout.logName), fs: fs)
            try DurableFile.write(layout.marker, to: url.appendingPathComponent(markerName), fs: fs)
        } catch {
            throw StoreDataDirectoryError(path: url.path, reason: "cannot initialise the data directory: \(error)")
        }
    }

    /// Removes what an interrupted write or compaction left: temporary files and other generations' files (their logs
    /// named by one of `stems`, or by the legacy stem).
    private static func removeLeftovers(_ url: URL, layout: Layout, stems: [String], fs: any StoreFileSystem) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        let photoNames = (try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(photosName).path)) ?? []
        let keep = Set([markerName, photosName, layout.logName] + (layout.snapshotName.map { [$0] } ?? []))
        let prefixes = Set(stems + [legacyLogStem, "snapshot"]).map { $0 + "." }
        func isOurs(_ name: String) -> Bool {
            name.hasSuffix(".tmp") || name.hasSuffix(".log") && prefixes.contains { name.hasPrefix($0) }
        }
        var removed: [String] = names.filter { !keep.contains($0) && isOurs($0) }.map { url.appendingPathComponent($0).path }
        removed += photoNames.filter { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }.map { url.appendingPathComponent(photosName).appendingPathComponent($0).path }
        var notices: [String] = []
        for path in removed {
            do { try fs.remove(path) } catch { notices.append("could not remove a leftover of an interrupted write: \(error)") }
        }
        if !removed.isEmpty {
            notices.append("removed \(removed.count) leftover file(s) of an interrupted write or compaction: "
                + removed.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))
        }
        return notices
    }
}

/// `open(2)`, reachable from inside `StoreDataDirectory`, whose own `open` would shadow it.
func posixOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
}

/// `close(2)`, reachable from inside `StoreDataDirectory`, whose own `close` would shadow it.
func posixClose(_ fd: Int32) {
    if fd >= 0 { _ = close(fd) }
}
