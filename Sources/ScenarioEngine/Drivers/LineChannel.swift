import Foundation

/// Lines read from a child process's stdout, handed to one waiting reader at a time with a deadline.
final class LineChannel: @unchecked Sendable {
    /// What a wait produced.
    enum Event: Sendable, Equatable {
        case line(String)
        case endOfFile
        case timedOut
    }

    private let lock = NSLock()
    private var lines: [String] = []
    private var finished = false
    private var waiter: (token: Int, continuation: CheckedContinuation<Event, Never>, timer: Task<Void, Never>?)?
    private var nextToken = 0

    /// Adds a complete line (without its newline).
    func push(_ line: String) {
        lock.lock()
        if let w = waiter {
            waiter = nil
            lock.unlock()
            w.timer?.cancel()
            w.continuation.resume(returning: .line(line))
            return
        }
        lines.append(line)
        lock.unlock()
    }

    /// Marks the end of the stream.
    func finish() {
        lock.lock()
        finished = true
        let w = waiter
        waiter = nil
        lock.unlock()
        w?.timer?.cancel()
        w?.continuation.resume(returning: .endOfFile)
    }

    /// The next line, `.endOfFile`, or `.timedOut` after `timeout`.
    func next(timeout: Duration) async -> Event {
        await withCheckedContinuation { (continuation: CheckedContinuation<Event, Never>) in
            lock.lock()
            if !lines.isEmpty {
                let line = lines.removeFirst()
                lock.unlock()
                continuation.resume(returning: .line(line))
                return
            }
            if finished {
                lock.unlock()
                continuation.resume(returning: .endOfFile)
                return
            }
            nextToken += 1
            let token = nextToken
            waiter = (token, continuation, nil)
            lock.unlock()
            let timer = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { self?.expire(token) }
            }
            lock.lock()
            if waiter?.token == token {
                waiter?.timer = timer
                lock.unlock()
            } else {
                lock.unlock()
                timer.cancel()
            }
        }
    }

    private func expire(_ token: Int) {
        lock.lock()
        guard let w = waiter, w.token == token else {
            lock.unlock()
            return
        }
        waiter = nil
        lock.unlock()
        w.continuation.resume(returning: .timedOut)
    }
}

/// The last bytes a child process wrote to stderr, kept for failure messages.
final class TailBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var done = false
    private let limit: Int

    /// A buffer keeping the last `limit` bytes.
    init(limit: Int = 4096) { self.limit = limit }

    func append(_ chunk: ArraySlice<UInt8>) {
        lock.lock()
        bytes.append(contentsOf: chunk)
        if bytes.count > limit { bytes.removeFirst(bytes.count - limit) }
        lock.unlock()
    }

    func finish() {
        lock.lock()
        done = true
        lock.unlock()
    }

    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return done
    }

    /// The last `lines` lines as text.
    func tail(lines: Int = 20) -> String {
        lock.lock()
        let text = String(decoding: bytes, as: UTF8.self)
        lock.unlock()
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Reads a file descriptor on its own thread until end of file; pipes from child processes block, so they get a thread.
enum PipeReader {
    /// Splits the stream into lines for `channel`.
    static func readLines(fd: Int32, into channel: LineChannel) {
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
            channel.finish()
        }
        thread.start()
    }

    /// Keeps the tail of the stream in `tail`.
    static func readTail(fd: Int32, into tail: TailBuffer) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                tail.append(buffer[0..<n])
            }
            tail.finish()
        }
        thread.start()
    }
}
