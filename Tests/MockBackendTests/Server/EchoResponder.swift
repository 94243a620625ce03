import Foundation
import ContractModel
import MockBackend
import NIOCore
import NIOHTTP1

/// A test backend that answers every request with JSON describing what it received (method, uri, auth, body size and checksum).
struct EchoResponder: MockResponder {
    /// The most body bytes accepted before `respondToOversizedBody`.
    var limit = 25 * 1024 * 1024
    /// Extra bytes of padding in the answer, for faults that cut or drip the body.
    var padding = 0
    /// Counts requests that reached the backend, so tests can tell which faults bypass it.
    let calls = Calls()

    func respond(to request: MockRequest) async -> MockResponse {
        calls.increment()
        var object: [String: Any] = [
            "method": request.method.rawValue,
            "uri": request.uri,
            "bodyBytes": request.body.readableBytes,
            "checksum": request.body.withUnsafeReadableBytes { Checksum.fnv1a($0) },
        ]
        if let auth = request.headers.first(name: "authorization") { object["authorization"] = auth }
        if let custom = request.headers.first(name: "x-custom") { object["custom"] = custom }
        if padding > 0 { object["padding"] = String(repeating: "x", count: padding) }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        var body = ByteBuffer()
        body.writeBytes(data)
        return MockResponse(status: request.method == .POST ? .created : .ok,
                            headers: ["content-type": "application/json", "x-echo": "yes"], body: body)
    }

    func bodyLimit(for head: MockRequest) -> Int { limit }
}

/// A thread-safe counter.
final class Calls: @unchecked Sendable {
    // Guarded by `lock`.
    private var count = 0
    private let lock = NSLock()

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// FNV-1a 64: enough to prove a body passed through byte for byte.
enum Checksum {
    static func fnv1a<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
