import Foundation
import Testing

@testable import ContractModel
@testable import MockBackend

/// Once the target has sent its answer's head, a body that stops coming is cut by the proxy's timeout, over real sockets.
@Suite struct StalledUpstreamTests {
    /// A target that sends its answer's head and the first byte of a `bodyBytes`-long JSON body, then nothing more,
    /// behind a proxy with a short timeout.
    ///
    /// The target answers from the event loop: a mock target answering from the task pool could take longer than the
    /// proxy's timeout to send even its head while the rest of the suite keeps the pool busy, and the proxy would then
    /// rightly report a target that never answered, which is not what these tests are about.
    private func withStallingTarget<T>(bodyBytes: Int, _ body: (MockServer) async throws -> T) async throws -> T {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(bodyBytes)\r\n\r\n{"
        return try await RequestLineRecorder.with(answer: head, holdOpen: true) { target in
            // Short beside a silence that never ends, long enough for a busy machine to start the proxy's own task.
            let proxy = try FaultProxy(target: target.baseURL, timeout: .seconds(12))
            return try await withServer(responder: proxy) { server, _ in try await body(server) }
        }
    }

    @Test func aStreamedBodyThatStallsIsCut() async throws {
        // Larger than the JSON validation limit, so the proxy streams it and its head reaches the client first.
        try await withStallingTarget(bodyBytes: Exchange.jsonValidationLimit + 1000) { server in
            let port = try #require(server.address?.port)
            let connection = try await RawConnection.connect(port: port, sending: rawRequest("GET", "/api/v1/announcements/x"))
            defer { connection.close() }
            // The target never ends its body on its own, so a connection that ends within the window was cut by the
            // proxy. (No stopwatch: on a busy machine it would time the task pool too.)
            let read = await connection.read(window: .seconds(40))
            #expect(read.status == 200)
            #expect(read.ending == .closed || read.ending == .reset)
            #expect((read.body?.count ?? 0) < 1000)
            let entry = try #require(server.journal.entries().last)
            #expect(entry.status == 200)
        }
    }

    @Test func aHeldJSONBodyThatStallsBecomesA504() async throws {
        try await withStallingTarget(bodyBytes: 100) { server in
            let port = try #require(server.address?.port)
            let connection = try await RawConnection.connect(port: port, sending: rawRequest("GET", "/api/v1/announcements/x"))
            defer { connection.close() }
            let read = await connection.readResponse(window: .seconds(40))
            #expect(read.status == 504)
            #expect(read.text.contains("nothing of the body"))
        }
    }

    @Test func aClientTricklingItsBodyThroughTheProxyGetsA504AndTheConnectionEnds() async throws {
        try await withServer(responder: EchoResponder()) { _, upstream in
            let proxy = try FaultProxy(target: upstream.baseURL, timeout: .seconds(1))
            try await withServer(responder: proxy) { server, address in
                let head = "POST /api/v1/announcements HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                let connection = try await RawConnection.connect(port: address.port, sending: head + "1\r\n{\r\n")
                defer { connection.close() }
                // Trickles for up to a minute, so the cut is the proxy's even if a busy machine delays its 504.
                let sender = Task {
                    for _ in 0..<600 {
                        guard (try? await connection.send("1\r\n \r\n")) != nil else { return }
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                }
                defer { sender.cancel() }
                let read = await connection.read(window: .seconds(60))
                #expect(read.status == 504)
                #expect(read.text.lowercased().contains("connection: close"))
                #expect(read.ending == .closed || read.ending == .reset)
            }
        }
    }
}
