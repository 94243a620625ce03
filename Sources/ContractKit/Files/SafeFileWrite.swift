import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes report and HAR files without following a symlink at the target: someone who can plant a link at
/// `out/junit.xml` or `field.har` must not make SpotCheck overwrite the file it points to. The target is opened with
/// `O_NOFOLLOW`; a symlink there (dangling or not) is refused with a message saying so.
public enum SafeFileWrite {
    /// Why a file was not written.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
        /// The file as given.
        public var path: String
        /// What went wrong.
        public var reason: String

        /// The reason alone: callers name the path themselves ("cannot write PATH: reason").
        public var description: String { reason }
        /// The reason alone, as `description`.
        public var errorDescription: String? { reason }
    }

    /// Opens `path` for writing (created with mode 0644 when missing; emptied unless `append`), never through a symlink.
    public static func open(_ path: String, append: Bool) throws(Failure) -> FileHandle {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (append ? O_APPEND : O_TRUNC)
        let fd = Glibc_open(path, flags)
        guard fd >= 0 else {
            let code = errno
            var info = stat()
            if code == ELOOP || (lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK) {
                throw Failure(path: path, reason: "is a symlink; SpotCheck does not write through symlinks (remove it or choose another file)")
            }
            throw Failure(path: path, reason: String(cString: strerror(code)))
        }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// Replaces (or, with `append`, extends) the file at `path` with `data`, never through a symlink.
    public static func write(_ data: Data, to path: String, append: Bool = false) throws(Failure) {
        let handle = try open(path, append: append)
        do {
            try handle.write(contentsOf: data)
            try handle.close()
        } catch {
            throw Failure(path: path, reason: "cannot write: \(FileErrorText.reason(error))")
        }
    }

    private static func Glibc_open(_ path: String, _ flags: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.open(path, flags, 0o644)
        #else
            Darwin.open(path, flags, 0o644)
        #endif
    }
}
