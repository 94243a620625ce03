import Foundation
import Testing

@testable import ContractModel
@testable import MockBackend

/// A request body must make progress: a trickle is cut like a request head that never completes, over real sockets.
@Suite struct SlowBodyTests {
    private static let chunkedHead = "POST /api/v1/announcements HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"

    /// Sends one byte of chunked body every `interval` until the connection fails or `count` bytes went out; the task's
    /// value is how many went out.
    private static func trickle(_ connection: RawConnection, every interval: Duration, count: Int) -> Task<Int, Never> {
        Task {
            for sent in 0..<count {
                guard (try? await connection.send("1\r\na\r\n")) != nil else { return sent }
                try? await Task.sleep(for: interval)
            }
            return count
        }
    }

    @Test func aChunkedBodyTrickledOneByteAtATimeIsCut() async throws {
        let configuration = ServerConfiguration(idleTimeout: .milliseconds(300), quiet: true)
        let responder = EchoResponder()
        try await withServer(configuration: configuration, responder: responder) { server, address in
            let connection = try await RawConnection.connect(port: address.port, sending: Self.chunkedHead)
            defer { connection.close() }
            // One byte every 100 ms: each read would reset a plain idle timeout, so only the progress rule can end it.
            let sender = Self.trickle(connection, every: .milliseconds(100), count: 100)
            defer { sender.cancel() }
            // 100 bytes take 10 s; a plain idle timeout would let all of them through and leave the read silent.
            let read = await connection.read(window: .seconds(8))
            #expect(read.ending == .closed || read.ending == .reset)
            #expect(read.bytes.isEmpty)
            sender.cancel()
            #expect(await sender.value < 100, "the server let the whole trickle through")
            #expect(responder.calls.value == 0)
            #expect(server.journal.entries().isEmpty)
        }
    }

    @Test func aContentLengthBodyTrickledIsCutToo() async throws {
        let configuration = ServerConfiguration(idleTimeout: .milliseconds(300), quiet: true)
        try await withServer(configuration: configuration) { _, address in
            let head = "POST /api/v1/announcements HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000\r\n\r\n"
            let connection = try await RawConnection.connect(port: address.port, sending: head)
            defer { connection.close() }
            let sender = Task {
                for _ in 0..<100 {
                    guard (try? await connection.send("x")) != nil else { return }
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            defer { sender.cancel() }
            let read = await connection.read(window: .seconds(8))
            #expect(read.ending == .closed || read.ending == .reset)
            #expect(read.bytes.isEmpty)
        }
    }

    @Test func aSlowButSteadyBodyLongerThanTheIdleTimeoutIsAnswered() async throws {
        var configuration = ServerConfiguration(idleTimeout: .seconds(4), quiet: true)
        configuration.minimumBodyBytesPerWindow = 4
        try await withServer(configuration: configuration) { _, address in
            // 5 bytes every 100 ms for 6 s: one and a half times the idle timeout in all, but ~200 bytes per window (4
            // needed), so only a sender starved for four whole seconds could fall short (two happened beside two CPU burners).
            // Head, chunks and end go from one thread: a task hop between them waited out the four seconds on a busy pool.
            let connection = try await RawConnection.connect(port: address.port, sending: Self.chunkedHead,
                                                             thenSteadily: "5\r\nabcde\r\n", times: 60, every: .milliseconds(100),
                                                             thenSending: "0\r\n\r\n")
            defer { connection.close() }
            let read = await connection.readResponse(window: .seconds(60))
            #expect(read.status == 201)
            let echo = try #require(read.body)
            #expect(String(decoding: echo, as: UTF8.self).contains("\"bodyBytes\":300"))
        }
    }

    @Test func manyTricklingConnectionsDoNotStopTheMainOrAdminPort() async throws {
        let configuration = ServerConfiguration(adminPort: 0, idleTimeout: patientIdleTimeout, quiet: true)
        try await withServer(configuration: configuration) { _, address in
            var held: [RawConnection] = []
            defer { for connection in held { connection.close() } }
            for _ in 0..<200 {
                let connection = try await RawConnection.connect(port: address.port, sending: Self.chunkedHead + "1\r\na\r\n")
                held.append(connection)
            }
            for port in [address.port, try #require(address.adminPort)] {
                let probe = try await RawConnection.connect(port: port, sending: rawRequest("GET", "/__spotcheck/health", close: true))
                defer { probe.close() }
                // The 200 trickling connections hold their slots for the idle timeout (ten minutes here); an answer
                // within 30 s shows the probe did not wait for them. (No stopwatch here: a busy task pool would be timed too.)
                let read = await probe.readResponse(window: .seconds(30))
                #expect(read.status == 200)
            }
        }
    }

    @Test func theProgressRuleCountsPerWindow() {
        var progress = BodyProgress(minimumBytes: 10)
        progress.received(4)
        progress.received(6)
        let enough = progress.windowEnded()
        progress.received(9)
        let tooLittle = progress.windowEnded()
        let nothing = progress.windowEnded()
        #expect(enough && !tooLittle && !nothing)
        #expect(BodyProgress(minimumBytes: 0).minimumBytes == 1)
    }
}
