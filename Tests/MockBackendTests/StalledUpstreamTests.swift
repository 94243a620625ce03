import Foundation
import Testing

@testable import MockBackend

/// Once the target has sent its answer's head, a body that stops coming is cut by the proxy's timeout, over real sockets.
@Suite struct StalledUpstreamTests {
    /// A target that sends its head and then one body byte per 60 s (a `slowBody` fault), behind a proxy with a short timeout.
    private func withStallingTarget<T>(padding: Int, _ body: (MockServer) async throws -> T) async throws -> T {
        let stall = FaultRule(name: "stall the body", fault: .slowBody(chunkBytes: 1, intervalMs: 60_000))
        return try await withServer(rules: [stall], responder: EchoResponder(padding: padding)) { _, upstream in
            // Long enough for a loaded machine to produce the head (CI runs the whole suite in parallel on two cores,
            // where 5 s was once not enough), short beside the target's 60 s silence.
            let proxy = try FaultProxy(target: upstream.baseURL, timeout: .seconds(12))
            return try await withServer(responder: proxy) { server, _ in try await body(server) }
        }
    }

    @Test func aStreamedBodyThatStallsIsCut() async throws {
        // Larger than the JSON validation limit, so the proxy streams it and its head reaches the client first.
        try await withStallingTarget(padding: Exchange.jsonValidationLimit + 1000) { server in
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
        try await withStallingTarget(padding: 0) { server in
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
                let sender = Task {
                    for _ in 0..<100 {
                        guard (try? await connection.send("1\r\n \r\n")) != nil else { return }
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                }
                defer { sender.cancel() }
                let read = await connection.read(window: .seconds(8))
                #expect(read.status == 504)
                #expect(read.text.lowercased().contains("connection: close"))
                #expect(read.ending == .closed || read.ending == .reset)
            }
        }
    }
}
