import Foundation

/// Reads a pipe on its own thread until end of file; pipes from child processes block, so they get a thread. At end of
/// file the handle is closed: a session per generated exploration session would otherwise leak two descriptors each,
/// and past 1,024 open descriptors Foundation's Process.run crashes.
enum PipeReader {
    /// Splits the stream into lines for `channel`.
    static func readLines(_ handle: FileHandle, into channel: LineChannel) {
        let fd = handle.fileDescriptor
        let thread = Thread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 8192)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                pending.append(contentsOf: buffer[0..<n])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    var line = Array(pending[..<newline])
                    if line.last == UInt8(ascii: "\r") { line.removeLast() }
                    pending.removeSubrange(...newline)
                    channel.push(String(decoding: line, as: UTF8.self))
                }
            }
            if !pending.isEmpty { channel.push(String(decoding: pending, as: UTF8.self)) }
            try? handle.close()
            channel.finish()
        }
        thread.start()
    }

    /// Keeps the tail of the stream in `tail`.
    static func readTail(_ handle: FileHandle, into tail: TailBuffer) {
        let fd = handle.fileDescriptor
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                tail.append(buffer[0..<n])
            }
            try? handle.close()
            tail.finish()
        }
        thread.start()
    }
}
