import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash-safe file writes: a whole file through a temporary name, fsync and rename; or an append followed by fsync.
enum DurableFile {
    /// A system call that failed, with the file and the system's words for it.
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let call: String
        let code: Int32

        var description: String { "\(path): \(call) failed: \(String(cString: strerror(code)))" }
    }

    /// Replaces `url` with `bytes` atomically: readers see the old file or the new one, never a mix, even after a kill.
    static func write(_ bytes: [UInt8], to url: URL, syncDirectory sync: Bool = true) throws(Failure) {
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(path: temp.path, call: "open", code: errno) }
        do throws(Failure) {
            try writeAll(bytes, to: fd, path: temp.path)
            guard fsync(fd) == 0 else { throw Failure(path: temp.path, call: "fsync", code: errno) }
        } catch {
            close(fd)
            unlink(temp.path)
            throw error
        }
        close(fd)
        guard rename(temp.path, url.path) == 0 else {
            let code = errno
            unlink(temp.path)
            throw Failure(path: url.path, call: "rename", code: code)
        }
        if sync { try syncDirectory(url.deletingLastPathComponent()) }
    }

    /// Appends `bytes` to an open file and fsyncs it.
    static func append(_ bytes: [UInt8], to fd: Int32, path: String) throws(Failure) {
        try writeAll(bytes, to: fd, path: path)
        guard fsync(fd) == 0 else { throw Failure(path: path, call: "fsync", code: errno) }
    }

    /// Makes the directory's entries (new and renamed names) durable.
    static func syncDirectory(_ url: URL) throws(Failure) {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(path: url.path, call: "open", code: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Failure(path: url.path, call: "fsync", code: errno) }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, call: "write", code: errno)
            }
            offset += n
        }
    }
}

/// `write(2)`, reachable where a `write` method would shadow it.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
