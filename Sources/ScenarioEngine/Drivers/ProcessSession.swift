import ContractKit
import ContractModel
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One running client process.
final class ProcessSession: ClientSession, @unchecked Sendable {
    private let process: Process
    private let stdin: Pipe
    private let stdout: Pipe
    private let stderr: Pipe
    private let command: String
    private let stepTimeout: Duration
    private let lines = LineChannel()
    private let tail = TailBuffer()
    private let lock = NSLock()
    /// Held while writing to stdin and while closing it: a write must never use the descriptor's number after the
    /// close, when the process may already have given it to a socket.
    private let stdinLock = NSLock()
    private var nextID = 1
    private var closed = false

    init(process: Process, stdin: Pipe, stdout: Pipe, stderr: Pipe, command: String, stepTimeout: Duration) {
        self.process = process
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.command = command
        self.stepTimeout = stepTimeout
        PipeReader.readLines(stdout.fileHandleForReading, into: lines)
        PipeReader.readTail(stderr.fileHandleForReading, into: tail)
    }

    var stderrTail: String { tail.tail() }

    func takeID() -> Int {
        lock.withLock {
            let id = nextID
            nextID += 1
            return id
        }
    }

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        // No timer here: the engine's step deadline is the only one, so a hung client always gets the same message.
        let answer = try await exchange(WireProtocol.request(id: takeID(), action: action), what: action.name, timeout: nil)
        do {
            return try WireProtocol.observation(from: answer)
        } catch {
            throw error.with(stderrTail: stderrTail)
        }
    }

    func diagnostics() async -> String? {
        // stderr and stdout are separate pipes: lines written just before the answer may still be in flight.
        var text = stderrTail
        for _ in 0..<10 {
            try? await Task.sleep(for: .milliseconds(20))
            let now = stderrTail
            if now == text && !now.isEmpty { break }
            text = now
        }
        return text.isEmpty ? nil : text
    }

    /// Sends one request line and waits for its answer line, within `timeout` when one is given.
    func exchange(_ request: JSONValue, what: String, timeout: Duration?) async throws(DriverError) -> JSONValue {
        let id = request["id"]?.intValue ?? 0
        guard write(WireProtocol.line(request)) else {
            throw DriverError("cannot send \"\(what)\" to the client: it is no longer reading its stdin\(await exitDescription())", stderrTail: await settledTail())
        }
        switch await lines.next(timeout: timeout) {
        case .line(let line):
            do {
                return try WireProtocol.decodeAnswer(line, expectedID: id, action: what)
            } catch {
                throw error.with(stderrTail: await settledTail())
            }
        case .endOfFile:
            throw DriverError("the client closed its stdout before answering \"\(what)\"\(await exitDescription())", stderrTail: await settledTail())
        case .timedOut:
            throw DriverError("the client did not answer \"\(what)\" within \((timeout ?? stepTimeout).milliseconds) ms", stderrTail: stderrTail)
        }
    }

    private func write(_ text: String) -> Bool {
        stdinLock.lock()
        defer { stdinLock.unlock() }
        let fd = stdin.fileHandleForWriting.fileDescriptor
        guard fd >= 0 else { return false }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            bytes = bytes.dropFirst(n)
        }
        return true
    }

    /// Waits briefly for the process to exit and stderr to drain, so a crash message carries its last words.
    private func settledTail() async -> String {
        for _ in 0..<100 where process.isRunning || !tail.isFinished {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return tail.tail()
    }

    private func exitDescription() async -> String {
        for _ in 0..<100 where process.isRunning {
            try? await Task.sleep(for: .milliseconds(10))
        }
        if process.isRunning { return "" }
        switch process.terminationReason {
        case .uncaughtSignal: return " (it was killed by signal \(process.terminationStatus))"
        default: return " (it exited with status \(process.terminationStatus))"
        }
    }

    func close() async {
        let alreadyClosed = lock.withLock {
            let was = closed
            closed = true
            return was
        }
        if alreadyClosed { return }
        if process.isRunning { _ = write(WireProtocol.line(WireProtocol.quitRequest(id: takeID()))) }
        stdinLock.withLock { try? stdin.fileHandleForWriting.close() }
        for _ in 0..<100 where process.isRunning {
            try? await Task.sleep(for: .milliseconds(5))
        }
        if process.isRunning {
            process.terminate()
            for _ in 0..<100 where process.isRunning {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
