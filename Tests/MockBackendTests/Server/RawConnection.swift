import Foundation
#if canImport(Glibc)
import Glibc
private func posixConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { Glibc.connect(fd, address, length) }
@discardableResult private func posixClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
@discardableResult private func posixShutdown(_ fd: Int32) -> Int32 { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
private func posixSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int { Glibc.send(fd, bytes, count, flags) }
private let noSignal = Int32(MSG_NOSIGNAL)
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
import Darwin
private func posixConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { Darwin.connect(fd, address, length) }
@discardableResult private func posixClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
@discardableResult private func posixShutdown(_ fd: Int32) -> Int32 { Darwin.shutdown(fd, SHUT_RDWR) }
private func posixSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int { Darwin.send(fd, bytes, count, flags) }
private let noSignal = Int32(0)
private let streamSocket = SOCK_STREAM
#endif

/// How a raw read ended.
enum RawEnding: Equatable {
    /// The peer closed in an orderly way (FIN).
    case closed
    /// The peer aborted the connection (RST).
    case reset
    /// Nothing more arrived within the window; the connection is still open.
    case silent
    /// Some other socket error.
    case failed(Int32)
}

/// What a raw read collected.
struct RawRead {
    var bytes: [UInt8]
    var ending: RawEnding

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The body after the header block, if the header block arrived.
    var body: [UInt8]? {
        let marker: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where Array(bytes[i..<(i + 4)]) == marker {
            return Array(bytes[(i + 4)...])
        }
        return nil
    }

    /// The status code of the first response line, if there is one.
    var status: Int? {
        let parts = text.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/") else { return nil }
        return Int(parts[1])
    }
}

/// A plain POSIX TCP client for wire-level tests; blocking calls run on their own thread, never on the task pool.
///
/// The descriptor is released only in `deinit`, never by `close()`: every blocking call holds the connection, so the
/// number cannot be reused by another test's socket (the whole test suite shares one process) while a call still uses it.
/// A second `close()`, or a call after it, then touches only this dead socket, never someone else's.
final class RawConnection: @unchecked Sendable {
    private let fd: Int32

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        posixClose(fd)
    }

    /// Connects to 127.0.0.1:port and sends `text` right away from the same thread.
    static func connect(port: Int, sending text: String) async throws -> RawConnection {
        try await offPool {
            let connection = try connectNow(port: port)
            let bytes = Array(text.utf8)
            let sent = bytes.withUnsafeBytes { posixSend(connection.fd, $0.baseAddress, $0.count, noSignal) }
            if sent != bytes.count {
                throw RawSocketError(code: errno)
            }
            return connection
        }
    }

    /// Connects to 127.0.0.1:port; throws the errno (e.g. ECONNREFUSED) on failure.
    static func connect(port: Int) async throws -> RawConnection {
        try await offPool { try connectNow(port: port) }
    }

    private static func connectNow(port: Int) throws -> RawConnection {
        do {
            let fd = socket(AF_INET, streamSocket, 0)
            guard fd >= 0 else { throw RawSocketError(code: errno) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    posixConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if result != 0 {
                let code = errno
                posixClose(fd)
                throw RawSocketError(code: code)
            }
            return RawConnection(fd: fd)
        }
    }

    /// Sends all bytes.
    func send(_ bytes: [UInt8]) async throws {
        try await RawConnection.offPool { [self] in try sendNow(bytes) }
    }

    /// Sends a string as UTF-8.
    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    /// Connects to 127.0.0.1:port, sends `first`, then `text` `times` times pausing `interval` between sends, then
    /// `last`, all from one dedicated thread: a steady sender even when the task pool is saturated by tests running
    /// beside it (a task hop anywhere in between could outlast a short idle timeout on a busy machine).
    static func connect(port: Int, sending first: String, thenSteadily text: String, times: Int, every interval: Duration,
                        thenSending last: String) async throws -> RawConnection {
        let pause = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        return try await offPool {
            let connection = try connectNow(port: port)
            try connection.sendNow(Array(first.utf8))
            for _ in 0..<times {
                try connection.sendNow(Array(text.utf8))
                Thread.sleep(forTimeInterval: pause)
            }
            try connection.sendNow(Array(last.utf8))
            return connection
        }
    }

    /// Sends all of `bytes` on the calling thread.
    private func sendNow(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { posixSend(fd, $0.baseAddress, $0.count, noSignal) }
            if n < 0 { throw RawSocketError(code: errno) }
            offset += n
        }
    }

    /// Reads until the peer closes or resets, `limit` bytes arrived, or nothing arrives for `window`.
    func read(window: Duration, limit: Int = .max) async -> RawRead {
        await RawConnection.offPoolNonThrowing { [self] in
            var timeout = timeval(tv_sec: Int(window.components.seconds),
                                  tv_usec: Int(window.components.attoseconds / 1_000_000_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var collected: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while collected.count < limit {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n > 0 {
                    collected.append(contentsOf: buffer[0..<n])
                } else if n == 0 {
                    return RawRead(bytes: collected, ending: .closed)
                } else {
                    let code = errno
                    if code == EINTR { continue }
                    if code == EAGAIN || code == EWOULDBLOCK { return RawRead(bytes: collected, ending: .silent) }
                    if code == ECONNRESET { return RawRead(bytes: collected, ending: .reset) }
                    return RawRead(bytes: collected, ending: .failed(code))
                }
            }
            return RawRead(bytes: collected, ending: .silent)
        }
    }

    /// Reads one response with a Content-Length body (the server always sends one), for keep-alive tests.
    func readResponse(window: Duration = .seconds(60)) async -> RawRead {
        var total = RawRead(bytes: [], ending: .silent)
        while true {
            let part = await read(window: window, limit: 1)
            total.bytes += part.bytes
            total.ending = part.ending
            if part.ending != .silent || part.bytes.isEmpty { return total }
            if let body = total.body {
                let length = total.text.lowercased().components(separatedBy: "\r\n")
                    .first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if body.count >= length { return total }
            }
        }
    }

    /// Ends the connection both ways (the peer sees it close); the descriptor itself goes when the last user lets go.
    func close() {
        posixShutdown(fd)
    }

    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    private static func offPoolNonThrowing<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}

/// A socket call failed with this errno.
struct RawSocketError: Error, Equatable {
    let code: Int32
}
