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

    /// The next line, `.endOfFile`, or `.timedOut` after `timeout` (never when `nil`: the caller owns the deadline).
    func next(timeout: Duration?) async -> Event {
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
            guard let timeout else { return }
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
