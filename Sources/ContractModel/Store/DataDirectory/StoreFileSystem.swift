import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calls that change a data directory's files, behind one seam so tests can make any of them fail (a full disk)
/// or stop a compaction after any step (a crash) without a real full disk or a real kill.
protocol StoreFileSystem: Sendable {
    /// Writes all of `bytes` to an open file at its offset (the end, for a log opened to append).
    func write(_ bytes: [UInt8], to fd: Int32, path: String) throws(DurableFile.Failure)
    /// `fsync(2)`.
    func sync(_ fd: Int32, path: String) throws(DurableFile.Failure)
    /// `ftruncate(2)`.
    func truncate(_ fd: Int32, path: String, to length: Int) throws(DurableFile.Failure)
    /// `rename(2)`, atomic within the directory.
    func rename(_ from: String, to: String) throws(DurableFile.Failure)
    /// `unlink(2)`; a missing file is not an error.
    func remove(_ path: String) throws(DurableFile.Failure)
    /// Called after each step of a compaction; the crash test and unit tests stop there.
    func reached(_ step: CompactionStep) throws(DurableFile.Failure)
}

/// The steps of a compaction, in order; a crash after any of them leaves the old state or the new one readable.
public enum CompactionStep: String, Sendable, CaseIterable {
    /// Photo files the snapshot names but the disk lacked (fixtures' photos, queued uploads) are written and synced.
    case photosWritten = "photos-written"
    /// The snapshot is written to a temporary name and fsynced.
    case snapshotWritten = "snapshot-written"
    /// The snapshot is renamed to its generation's name and the directory fsynced.
    case snapshotRenamed = "snapshot-renamed"
    /// The new generation's empty log is created and fsynced.
    case logCreated = "log-created"
    /// The marker names the new generation (the commit point).
    case markerSwitched = "marker-switched"
    /// The previous generation's files and unreferenced photos are removed.
    case oldFilesRemoved = "old-files-removed"
}

/// The real system calls. `SPOTCHECK_STORE_CRASH_AT=<step>` kills the process with SIGKILL after that compaction
/// step: `scripts/crash_test.py` uses it to crash at every step; nothing else should set it.
struct PosixFileSystem: StoreFileSystem {
    /// The step after which to SIGKILL this process, if any.
    let crashAt: CompactionStep?

    init(crashAt: CompactionStep? = ProcessInfo.processInfo.environment["SPOTCHECK_STORE_CRASH_AT"].flatMap(CompactionStep.init(rawValue:))) {
        self.crashAt = crashAt
    }

    func write(_ bytes: [UInt8], to fd: Int32, path: String) throws(DurableFile.Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw DurableFile.Failure(path: path, call: "write", code: errno)
            }
            offset += n
        }
    }

    func sync(_ fd: Int32, path: String) throws(DurableFile.Failure) {
        guard fsync(fd) == 0 else { throw DurableFile.Failure(path: path, call: "fsync", code: errno) }
    }

    func truncate(_ fd: Int32, path: String, to length: Int) throws(DurableFile.Failure) {
        guard ftruncate(fd, off_t(length)) == 0 else { throw DurableFile.Failure(path: path, call: "ftruncate", code: errno) }
    }

    func rename(_ from: String, to: String) throws(DurableFile.Failure) {
        guard systemRename(from, to) == 0 else { throw DurableFile.Failure(path: to, call: "rename", code: errno) }
    }

    func remove(_ path: String) throws(DurableFile.Failure) {
        guard unlink(path) == 0 || errno == ENOENT else { throw DurableFile.Failure(path: path, call: "unlink", code: errno) }
    }

    func reached(_ step: CompactionStep) throws(DurableFile.Failure) {
        if step == crashAt { kill(getpid(), SIGKILL) }
    }
}

/// `write(2)`, reachable where a `write` method would shadow it.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// `rename(2)`, reachable where a `rename` method would shadow it.
private func systemRename(_ from: String, _ to: String) -> Int32 {
    rename(from, to)
}
