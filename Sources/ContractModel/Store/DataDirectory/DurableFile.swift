import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash-safe file operations over a `StoreFileSystem`: a whole file through a temporary name, fsync and rename;
/// an append followed by fsync; and opening that never follows a symlink.
enum DurableFile {
    /// A system call that failed, with the file and the system's words for it.
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let call: String
        let code: Int32

        var description: String { "\(path): \(call) failed: \(String(cString: strerror(code)))" }
        /// Whether the disk (or quota) was full, the failure that goes away by itself.
        var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }
    }

    /// The temporary name `write` uses for `url`; `open` removes such leftovers of a crash.
    static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
    }

    /// Replaces `url` with `bytes` atomically: readers see the old file or the new one, never a mix, even after a kill.
    static func write(_ bytes: [UInt8], to url: URL, fs: any StoreFileSystem, syncDirectory sync: Bool = true) throws(Failure) {
        let temp = temporaryURL(for: url)
        try writeTemporary(bytes, to: temp, fs: fs)
        do throws(Failure) {
            try fs.rename(temp.path, to: url.path)
        } catch {
            try? fs.remove(temp.path)
            throw error
        }
        if sync { try syncDirectory(url.deletingLastPathComponent(), fs: fs) }
    }

    /// Writes and fsyncs a new file at `temp` (replacing any leftover); on failure nothing is left behind.
    static func writeTemporary(_ bytes: [UInt8], to temp: URL, fs: any StoreFileSystem) throws(Failure) {
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw Failure(path: temp.path, call: "open", code: errno) }
        do throws(Failure) {
            try fs.write(bytes, to: fd, path: temp.path)
            try fs.sync(fd, path: temp.path)
        } catch {
            close(fd)
            try? fs.remove(temp.path)
            throw error
        }
        close(fd)
    }

    /// Appends `bytes` to an open file and fsyncs it.
    static func append(_ bytes: [UInt8], to fd: Int32, path: String, fs: any StoreFileSystem) throws(Failure) {
        try fs.write(bytes, to: fd, path: path)
        try fs.sync(fd, path: path)
    }

    /// Makes the directory's entries (new, renamed and removed names) durable.
    static func syncDirectory(_ url: URL, fs: any StoreFileSystem) throws(Failure) {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard fd >= 0 else { throw Failure(path: url.path, call: "open", code: errno) }
        defer { close(fd) }
        try fs.sync(fd, path: url.path)
    }

    /// What is at `path` without following a symlink: nil when nothing is there.
    static func kind(of path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// The bytes of a regular file, refusing a symlink (it could point anywhere, and a later write would follow it).
    static func read(_ url: URL) throws(StoreDataDirectoryError) -> [UInt8] {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP { throw StoreDataDirectory.symlinkError(url.path) }
            throw StoreDataDirectoryError(path: url.path, reason: "cannot be opened for reading: \(String(cString: strerror(code)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw StoreDataDirectoryError(path: url.path, reason: "is not a regular file; the data directory is left untouched")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                if n == 0 { break }
                throw StoreDataDirectoryError(path: url.path, reason: "cannot be read: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
        return offset == bytes.count ? bytes : Array(bytes[..<offset])
    }
}

/// `read(2)`, reachable where a `read` method would shadow it.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
