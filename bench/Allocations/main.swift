// Allocation counts of one create and one read through SpotCheck's pipeline, counted by ordo-one's malloc-interposer
// (the counter behind package-benchmark's malloc metrics; package-benchmark itself does not resolve here, see
// bench/README.md). Counts do not drift with a busy machine the way times do, so CI gates on them (swift-nio's
// allocation tests and postgres-nio's benchmarks do the same). Run through bench/allocations.sh, which preloads the
// interposer.
import ContractKit
import ContractModel
import Foundation
import Logging
import MallocInterposerSwift
import MockBackend

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a measurement failed on, with what to do about it.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
}

/// One measured operation: the allocations per request at the quietest of several rounds.
struct Measurement: Codable {
    let name: String
    let allocations: Int
    let bytes: Int
}

/// Runs `body` `count` times with counting on; returns the mallocs and bytes per run.
func counted(_ count: Int, _ body: () async throws -> Void) async rethrows -> (allocations: Int, bytes: Int) {
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    for _ in 0..<count { try await body() }
    MallocInterposerSwift.unhook()
    let statistics = MallocInterposerSwift.getStatistics()
    return (statistics.mallocCount / count, statistics.mallocBytesCount / count)
}

/// The quietest of `rounds` rounds of `perRound` runs each, after `warmUp` runs uncounted: a background timer that
/// allocates once in a while lands in one round, not in all of them.
func measure(_ name: String, warmUp: Int = 50, rounds: Int = 5, perRound: Int = 100, _ body: () async throws -> Void) async throws -> Measurement {
    for _ in 0..<warmUp { try await body() }
    var best: (allocations: Int, bytes: Int)?
    for _ in 0..<rounds {
        let round = try await counted(perRound, body)
        if best == nil || round.allocations < best!.allocations { best = round }
    }
    return Measurement(name: name, allocations: best!.allocations, bytes: best!.bytes)
}

/// A keep-alive HTTP/1.1 connection over a plain socket with a preallocated buffer: the client side allocates nothing
/// per request, so the process's count is the server's.
final class RawConnection {
    private let socket: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)

    init(port: Int) throws {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw BenchmarkError(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw BenchmarkError(description: "connect to 127.0.0.1:\(port) failed: errno \(errno)") }
    }

    deinit { close(socket) }

    /// Sends `request` and reads one whole answer (its head and `content-length` bytes); returns the answer's bytes.
    func exchange(_ request: [UInt8]) throws -> ArraySlice<UInt8> {
        var sent = 0
        while sent < request.count {
            let written = request.withUnsafeBytes { send(socket, $0.baseAddress! + sent, request.count - sent, 0) }
            guard written > 0 else { throw BenchmarkError(description: "send failed: errno \(errno)") }
            sent += written
        }
        var filled = 0
        while true {
            let read = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + filled, $0.count - filled, 0) }
            guard read > 0 else { throw BenchmarkError(description: "the server closed the connection after \(filled) bytes") }
            filled += read
            if let total = Self.answerLength(buffer, filled: filled), filled >= total { return buffer[0..<total] }
        }
    }

    /// The length of the answer at the start of `bytes` once its head is in, from its `content-length`; nil before.
    static func answerLength(_ bytes: [UInt8], filled: Int) -> Int? {
        guard filled >= 4 else { return nil }
        var end = 0
        while end + 3 < filled {
            if bytes[end] == 13, bytes[end + 1] == 10, bytes[end + 2] == 13, bytes[end + 3] == 10 { break }
            end += 1
        }
        guard end + 3 < filled else { return nil }
        let head = bytes[0..<end]
        // Case-insensitive search for "content-length:" without making strings (they would count as the client's).
        let name = Array("content-length:".utf8)
        var index = 0
        while index + name.count <= head.count {
            var matches = true
            for offset in 0..<name.count where head[index + offset] | 0x20 != name[offset] | 0x20 && name[offset] != 58 {
                matches = false
                break
            }
            if matches {
                var value = 0, cursor = index + name.count
                while cursor < head.count, head[cursor] == 32 { cursor += 1 }
                while cursor < head.count, (48...57).contains(head[cursor]) {
                    value = value * 10 + Int(head[cursor] - 48)
                    cursor += 1
                }
                return end + 4 + value
            }
            index += 1
        }
        return end + 4
    }
}

/// The request bytes of `method target` with `body` as JSON.
func requestBytes(_ method: String, _ target: String, body: [UInt8] = []) -> [UInt8] {
    var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if !body.isEmpty { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
    return Array((head + "\r\n").utf8) + body
}

/// The `id` of a JSON answer body.
func createdID(_ body: some Collection<UInt8>) throws -> String {
    guard let id = (try? JSONValue(parsing: Data(body)))?["id"]?.stringValue else {
        throw BenchmarkError(description: "the create's answer has no \"id\": \(String(decoding: body, as: UTF8.self).prefix(200))")
    }
    return id
}

/// The arguments: `--contracts DIR`, `--create PATH`, `--body FILE`, `--check THRESHOLDS.json`, `--write FILE`.
struct Arguments {
    var contracts = "contracts"
    var createPath = "/api/v1/announcements"
    var body = "bench/create-body.json"
    var check: String?
    var write: String?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw BenchmarkError(description: "\(flag) needs a value") }
            switch flag {
            case "--contracts": contracts = value
            case "--create": createPath = value
            case "--body": body = value
            case "--check": check = value
            case "--write": write = value
            default: throw BenchmarkError(description: "unknown argument \(flag); expected --contracts, --create, --body, --check or --write")
            }
        }
    }
}

func run() async throws -> Int32 {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    // Counting must be live: without the preloaded interposer every count reads 0, which would pass any threshold.
    let probe = await counted(1) { _ = [Int](repeating: 1, count: 1000).reduce(0, +) }
    guard probe.allocations > 0 else {
        throw BenchmarkError(description: "malloc-interposer counted nothing: run through bench/allocations.sh (LD_PRELOAD=libMallocInterposerSwift.so)")
    }
    let contracts = try ContractSet.load(from: URL(fileURLWithPath: arguments.contracts))
    let body = Array(try Data(contentsOf: URL(fileURLWithPath: arguments.body)))
    var logger = Logger(label: "spotcheck.allocations")
    logger.logLevel = .critical
    var results: [Measurement] = []

    // The executor alone: a value in, a value out, no NIO.
    let backend = try ModelBackend(configuration: .init(contracts: contracts, seed: 1, checkResponses: false), logger: logger)
    let create = ModelRequest(method: "POST", uri: arguments.createPath, headers: ["content-type": "application/json"], body: body)
    let first = await backend.executor.answer(create)
    guard (200..<300).contains(first.status.code) else {
        throw BenchmarkError(description: "the model answered the create \(first.status.code): \(String(decoding: first.body, as: UTF8.self).prefix(300))")
    }
    let read = ModelRequest(method: "GET", uri: arguments.createPath + "/" + (try createdID(first.body)))
    results.append(try await measure("executor create") { _ = await backend.executor.answer(create) })
    results.append(try await measure("executor GET by id") { _ = await backend.executor.answer(read) })

    // The whole server: HTTP decoding, the executor, the journal, encoding, over one keep-alive loopback connection.
    var options = ContractMock.Options(contracts: contracts, seed: 1, quiet: true, checkResponses: false, logger: logger)
    options.storeMaxBytes = nil
    let mock = try await ContractMock.start(options)
    do {
        let connection = try RawConnection(port: mock.port)
        let createBytes = requestBytes("POST", arguments.createPath, body: body)
        let answer = try connection.exchange(createBytes)
        let headEnd = answer.firstRange(of: [13, 10, 13, 10]).map(\.upperBound) ?? answer.endIndex
        let readBytes = requestBytes("GET", arguments.createPath + "/" + (try createdID(answer[headEnd...])))
        results.append(try await measure("server create") { _ = try connection.exchange(createBytes) })
        results.append(try await measure("server GET by id") { _ = try connection.exchange(readBytes) })
    } catch {
        try await mock.shutdown()
        throw error
    }
    try await mock.shutdown()

    print("allocations per request (the quietest of 5 rounds of 100, after 50 uncounted)")
    for result in results {
        print("  \(result.name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(String(result.allocations).leftPadded(6)) mallocs  \(String(result.bytes).leftPadded(8)) bytes")
    }
    if let path = arguments.write {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(results).write(to: URL(fileURLWithPath: path))
    }
    guard let path = arguments.check else { return 0 }
    let thresholds: [String: Int]
    do {
        thresholds = try JSONDecoder().decode([String: Int].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
        throw BenchmarkError(description: "\(path): expected an object of measurement name → most mallocs per request (\(error))")
    }
    var failed = false
    for result in results {
        guard let limit = thresholds[result.name] else {
            print("FAIL \(result.name): \(path) has no threshold for it")
            failed = true
            continue
        }
        if result.allocations > limit {
            print("FAIL \(result.name): \(result.allocations) mallocs per request, the threshold is \(limit) (\(path))")
            failed = true
        }
    }
    for name in thresholds.keys where !results.contains(where: { $0.name == name }) {
        print("FAIL \(path) names \"\(name)\", which nothing measures")
        failed = true
    }
    print(failed ? "allocation thresholds: exceeded" : "allocation thresholds: held (\(path))")
    return failed ? 1 : 0
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

do {
    exit(try await run())
} catch {
    FileHandle.standardError.write(Data("spotcheck-allocations: \(error)\n".utf8))
    exit(2)
}
