import Foundation

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
