import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A set of files under one folder written all or nothing, even when the process is killed part way.
///
/// Use: `let t = try FileTransaction(root: project)`, then `try t.stage("scenarios/x.json", data)` for each file, then
/// `let written = try t.commit()`. Staged files go to `ROOT/.spotcheck-staging/ID/` (same file system, so each move is
/// one `rename`); `commit` links every file it replaces to a backup, writes a manifest, renames each staged file into
/// place and marks the transaction done. Any failure rolls back everything moved (a replaced file comes back from its
/// backup, a new one is removed) and the error says so. A transaction killed before it was marked done is rolled back
/// by the next `FileTransaction` on the same root (or `recover(root:)`), which also sweeps staging left by runs killed
/// earlier; a running transaction holds a lock on its folder, so a concurrent one is never swept.
///
/// A target that is a symlink is replaced by the new file, never followed.
public final class FileTransaction {
    /// The folder every staged path is relative to.
    public let root: URL
    /// The staging folder's name under `root`.
    public static let stagingName = ".spotcheck-staging"

    private let folder: URL
    private var lock: Int32 = -1
    private var staged: [Entry] = []
    private var finished = false
    /// Tests only: the move (0-based) that fails as if `rename` had, to prove the rollback of the moves before it.
    var failingMove: Int?

    private struct Entry {
        var relative: String
        var replacing: Bool
        var file: String { relative.replacingOccurrences(of: "/", with: "%2F") }
    }

    /// Starts a transaction under `root`, first rolling back or sweeping what killed transactions left there.
    public init(root: URL) throws(FileTransactionError) {
        self.root = root.standardizedFileURL
        try Self.recover(root: self.root)
        folder = self.root.appendingPathComponent(Self.stagingName).appendingPathComponent(UUID().uuidString)
        for sub in ["files", "backup"] {
            do {
                try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
            } catch {
                throw FileTransactionError(path: folder.path, reason: "cannot create the staging folder: \(FileErrorText.reason(error))", rolledBack: [])
            }
        }
        lock = open(folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            throw FileTransactionError(path: folder.path, reason: "cannot lock the staging folder: \(String(cString: strerror(errno)))", rolledBack: [])
        }
    }

    deinit {
        if !finished { discard() }
    }

    /// Writes `data` to the staging folder, to be moved to `relativePath` (under `root`, `/`-separated) at `commit`.
    /// Unless `replacing`, the commit fails when anything (a file, a folder, a symlink, dangling or not) is already there.
    public func stage(_ relativePath: String, _ data: Data, replacing: Bool = false) throws(FileTransactionError) {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.isEmpty, !relativePath.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              parts.first.map(String.init) != Self.stagingName else {
            throw FileTransactionError(path: relativePath, reason: "not a plain path inside \(root.path)", rolledBack: [])
        }
        guard !staged.contains(where: { $0.relative == relativePath }) else {
            throw FileTransactionError(path: relativePath, reason: "staged twice", rolledBack: [])
        }
        let entry = Entry(relative: relativePath, replacing: replacing)
        try Self.writeSynced(data, to: folder.appendingPathComponent("files").appendingPathComponent(entry.file))
        staged.append(entry)
    }

    /// Moves every staged file into place and returns the files written (in staging order). On failure everything
    /// moved is rolled back and the error lists what was restored; the project is as it was.
    @discardableResult
    public func commit() throws(FileTransactionError) -> [URL] {
        guard !finished else { throw FileTransactionError(path: folder.path, reason: "this transaction already ended; start a new one", rolledBack: []) }
        let files = FileManager.default
        // Every check before the first move, so a refusal leaves nothing to undo.
        for entry in staged {
            let target = url(entry.relative)
            if Self.exists(target) {
                if !entry.replacing {
                    discard()
                    throw FileTransactionError(path: target.path, reason: "already exists (\(Self.kind(target))); move it away first", rolledBack: [])
                }
                if Self.kind(target) == "a folder" {
                    discard()
                    throw FileTransactionError(path: target.path, reason: "is a folder, not a file", rolledBack: [])
                }
            }
        }
        var manifest: [JSONValue] = []
        for entry in staged {
            let target = url(entry.relative)
            do {
                try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                discard()
                throw FileTransactionError(path: target.path, reason: "cannot create its folder: \(FileErrorText.reason(error))", rolledBack: [])
            }
            // A hard link keeps the old file in place until the rename replaces it, and costs no copy.
            if Self.exists(target), link(target.path, backup(entry).path) != 0 {
                let reason = String(cString: strerror(errno))
                discard()
                throw FileTransactionError(path: target.path, reason: "cannot keep a backup before replacing it: \(reason)", rolledBack: [])
            }
            manifest.append(.string(entry.relative))
        }
        // From here a kill is rolled back by the next run: the manifest names what may have moved.
        do {
            try Self.writeSynced(Data(JSONValue.array(manifest).serialized().utf8), to: folder.appendingPathComponent("manifest.json"))
        } catch {
            discard()
            throw error
        }
        var written: [URL] = []
        for (index, entry) in staged.enumerated() {
            let target = url(entry.relative)
            if index == failingMove || rename(stagedFile(entry).path, target.path) != 0 {
                let reason = index == failingMove ? "a simulated failure" : String(cString: strerror(errno))
                let restored = rollBack()
                throw FileTransactionError(path: target.path, reason: "cannot move into place: \(reason)", rolledBack: restored)
            }
            written.append(target)
        }
        for directory in Set(written.map { $0.deletingLastPathComponent().path }) { Self.syncDirectory(directory) }
        do {
            try Self.writeSynced(Data(), to: folder.appendingPathComponent("done"))
        } catch {
            let restored = rollBack()
            throw FileTransactionError(path: error.path, reason: error.reason, rolledBack: restored)
        }
        finish()
        return written
    }

    /// Drops every staged file; nothing under `root` changes.
    public func discard() {
        finish()
    }

    /// Rolls back or sweeps every staging folder under `root` that no running transaction holds: one killed after its
    /// manifest and before `done` has its moves undone; every other is only removed.
    public static func recover(root: URL) throws(FileTransactionError) {
        let staging = root.appendingPathComponent(stagingName)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
        for name in names {
            let folder = staging.appendingPathComponent(name)
            let fd = open(folder.appendingPathComponent("lock").path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            if fd >= 0 {
                defer { close(fd) }
                // Held: a transaction is running there.
                guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            }
            let manifest = folder.appendingPathComponent("manifest.json")
            let done = FileManager.default.fileExists(atPath: folder.appendingPathComponent("done").path)
            if !done, let data = FileManager.default.contents(atPath: manifest.path) {
                guard let paths = (try? JSONValue(parsing: data))?.arrayValue?.compactMap(\.stringValue) else {
                    throw FileTransactionError(path: manifest.path, reason: "a killed import left a damaged manifest; compare the project with git and remove \(staging.path)", rolledBack: [])
                }
                let entries = paths.map { Entry(relative: $0, replacing: true) }
                let failed = undo(entries, root: root.standardizedFileURL, folder: folder).failed
                if !failed.isEmpty {
                    throw FileTransactionError(path: root.path, reason: "could not roll back a killed import: \(failed.joined(separator: ", ")); \(folder.path) keeps the backups", rolledBack: [])
                }
            }
            try? FileManager.default.removeItem(at: folder)
        }
        if names.isEmpty || ((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).isEmpty {
            try? FileManager.default.removeItem(at: staging)
        }
    }

    // MARK: - Rolling back

    private func rollBack() -> [String] {
        let result = Self.undo(staged, root: root, folder: folder)
        if result.failed.isEmpty { finish() } else { finished = true; releaseLock() }
        return result.restored + result.failed.map { "NOT restored: \($0)" }
    }

    /// Undoes the moves of `entries`: a staged file that is gone was moved, so its target gets its backup back or, when
    /// it had none (a new file), is removed.
    private static func undo(_ entries: [Entry], root: URL, folder: URL) -> (restored: [String], failed: [String]) {
        var restored: [String] = []
        var failed: [String] = []
        for entry in entries.reversed() {
            let target = root.appendingPathComponent(entry.relative)
            let stagedFile = folder.appendingPathComponent("files").appendingPathComponent(entry.file)
            let backup = folder.appendingPathComponent("backup").appendingPathComponent(entry.file)
            guard !exists(stagedFile) else { continue }
            if exists(backup) {
                if rename(backup.path, target.path) == 0 { restored.append(target.path) } else { failed.append(target.path) }
            } else if exists(target) {
                if unlink(target.path) == 0 { restored.append(target.path) } else { failed.append(target.path) }
            }
        }
        for directory in Set(entries.map { root.appendingPathComponent($0.relative).deletingLastPathComponent().path }) { syncDirectory(directory) }
        return (restored, failed)
    }

    // MARK: - Files

    private func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }
    private func stagedFile(_ entry: Entry) -> URL { folder.appendingPathComponent("files").appendingPathComponent(entry.file) }
    private func backup(_ entry: Entry) -> URL { folder.appendingPathComponent("backup").appendingPathComponent(entry.file) }

    private func finish() {
        finished = true
        try? FileManager.default.removeItem(at: folder)
        releaseLock()
        let staging = root.appendingPathComponent(Self.stagingName)
        if ((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).isEmpty { try? FileManager.default.removeItem(at: staging) }
    }

    private func releaseLock() {
        if lock >= 0 { close(lock) }
        lock = -1
    }

    /// Whether anything is at `url`, a dangling symlink included (`lstat`, not `stat`).
    public static func exists(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0
    }

    private static func kind(_ url: URL) -> String {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return "nothing" }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return "a symlink"
        case S_IFDIR: return "a folder"
        default: return "a file"
        }
    }

    /// Writes a new file and fsyncs it, never following a symlink.
    private static func writeSynced(_ data: Data, to url: URL) throws(FileTransactionError) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw FileTransactionError(path: url.path, reason: "cannot create: \(String(cString: strerror(errno)))", rolledBack: []) }
        defer { close(fd) }
        let ok = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        guard ok, fsync(fd) == 0 else { throw FileTransactionError(path: url.path, reason: "cannot write: \(String(cString: strerror(errno)))", rolledBack: []) }
    }

    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}

/// Why a `FileTransaction` wrote nothing: the file, what went wrong, and the files its rollback restored.
public struct FileTransactionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or folder) at fault.
    public var path: String
    /// What went wrong.
    public var reason: String
    /// The targets the rollback put back as they were (a line starting `NOT restored:` when that failed).
    public var rolledBack: [String]

    /// An error.
    public init(path: String, reason: String, rolledBack: [String]) {
        self.path = path
        self.reason = reason
        self.rolledBack = rolledBack
    }

    /// `path: reason` and what the rollback did.
    public var description: String {
        "\(path): \(reason)" + (rolledBack.isEmpty ? "" : "; rolled back: " + rolledBack.joined(separator: ", "))
    }

    /// Whether the rollback failed for some file, so the project is not as it was.
    public var isPartial: Bool { rolledBack.contains { $0.hasPrefix("NOT restored") } }
}
