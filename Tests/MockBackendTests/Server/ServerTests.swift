import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

@Suite struct ServerTests {
    @Test func answersOnAnEphemeralLoopbackPortWithKeepAlive() async throws {
        let responder = EchoResponder()
        try await withServer(responder: responder) { _, address in
            #expect(address.port > 0)
            #expect(address.host == "127.0.0.1")
            #expect(address.baseURL.absoluteString == "http://127.0.0.1:\(address.port)")
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/api/v1/announcements/abc?x=1"))
            let first = await connection.readResponse()
            #expect(first.status == 200)
            #expect(first.text.lowercased().contains("connection: keep-alive"))
            #expect(first.text.contains(#""uri":"\/api\/v1\/announcements\/abc?x=1""#))
            try await connection.send(rawRequest("POST", "/api/v1/announcements", body: "{}"))
            let second = await connection.readResponse()
            #expect(second.status == 201)
            #expect(responder.calls.value == 2)
        }
    }

    @Test func closesAfterAnswerWhenTheClientAsksTo() async throws {
        try await withServer { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/x", close: true))
            let read = await connection.read(window: .seconds(60))
            #expect(read.status == 200)
            #expect(read.ending == .closed)
        }
    }

    @Test func journalRecordsContractStatusAndAuthUser() async throws {
        try await withServer { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            let auth = "Basic " + Data("abc-id:123456".utf8).base64EncodedString()
            try await connection.send(rawRequest("POST", "/api/v1/announcements/abc-id/photos", body: "x", headers: ["Authorization": auth]))
            _ = await connection.readResponse()
            try await connection.send(rawRequest("GET", "/unknown/route?q=1"))
            _ = await connection.readResponse()
            let entries = server.journal.entries()
            #expect(entries.count == 2)
            #expect(entries.map(\.sequence) == [1, 2])
            #expect(entries[0].method == "POST")
            #expect(entries[0].path == "/api/v1/announcements/abc-id/photos")
            #expect(entries[0].contract == "uploadPhoto")
            #expect(entries[0].status == 201)
            #expect(entries[0].authUser == "abc-id")
            #expect(entries[0].rule == nil && entries[0].fault == nil)
            #expect(entries[1].path == "/unknown/route")
            #expect(entries[1].contract == nil)
            #expect(entries[1].authUser == nil)
        }
    }

    @Test func rejectsADeclaredOversizedBodyWithoutCallingTheBackend() async throws {
        var responder = EchoResponder()
        responder.limit = 10
        try await withServer(responder: responder) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            // Only the head is sent: the answer must come before any body byte.
            try await connection.send("POST /api/v1/announcements HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
            let read = await connection.readResponse()
            #expect(read.status == 413)
            #expect(read.text.lowercased().contains("connection: close"))
            #expect(responder.calls.value == 0)
            #expect(server.journal.entries().first?.status == 413)
            #expect(server.journal.entries().first?.contract == "createAnnouncement")
        }
    }

    @Test func rejectsAStreamedOversizedBodyAndCloses() async throws {
        var responder = EchoResponder()
        responder.limit = 1000
        try await withServer(responder: responder) { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = String(repeating: "a", count: 4096)
            try await connection.send("1000\r\n\(chunk)\r\n")
            let read = await connection.readResponse()
            #expect(read.status == 413)
            #expect(responder.calls.value == 0)
            try await connection.send("0\r\n\r\n")
            let rest = await connection.read(window: .seconds(60))
            #expect(rest.ending == .closed || rest.ending == .reset)
        }
    }

    @Test func answersExpectContinueBeforeTheBody() async throws {
        try await withServer { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
            let interim = await connection.read(window: .seconds(60), limit: 1)
            #expect(interim.text.hasPrefix("HTTP/1.1 100 Continue"))
            try await connection.send("{}")
            let final = await connection.readResponse()
            #expect(final.text.contains("201 Created"))
        }
    }

    @Test func rejectsHugeHeadersWith431() async throws {
        let responder = EchoResponder()
        try await withServer(responder: responder) { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            let huge = String(repeating: "h", count: 100 * 1024)
            try? await connection.send("GET / HTTP/1.1\r\nHost: x\r\nX-Huge: \(huge)\r\n\r\n")
            let read = await connection.read(window: .seconds(60))
            #expect(read.status == 431)
            #expect(read.ending != .silent)
            #expect(responder.calls.value == 0)
        }
    }

    @Test func answersGarbageWith400AndCloses() async throws {
        try await withServer { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send("THIS IS NOT HTTP\r\n\r\n")
            let read = await connection.read(window: .seconds(60))
            #expect(read.status == 400)
            #expect(read.ending != .silent)
        }
    }

    @Test func idleTimeoutClosesAConnectionThatSendsNothing() async throws {
        let configuration = ServerConfiguration(idleTimeout: .milliseconds(200), quiet: true)
        try await withServer(configuration: configuration) { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            let read = await connection.read(window: .seconds(60))
            #expect(read.ending == .closed)
            #expect(read.bytes.isEmpty)
        }
    }

    @Test func survivesAClientThatDisconnectsMidBody() async throws {
        let responder = EchoResponder()
        try await withServer(responder: responder) { server, address in
            let quitter = try await RawConnection.connect(port: address.port)
            try await quitter.send("POST /api/v1/announcements HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part")
            quitter.close()
            let next = try await RawConnection.connect(port: address.port)
            defer { next.close() }
            try await next.send(rawRequest("GET", "/after"))
            let read = await next.readResponse()
            #expect(read.status == 200)
            #expect(responder.calls.value == 1)
            #expect(server.journal.entries().map(\.path) == ["/after"])
        }
    }

    @Test func startingTwiceFailsAndShutdownClosesOpenConnections() async throws {
        let stall = FaultRule(fault: .stall)
        try await withServer(rules: [stall]) { server, address in
            await #expect(throws: ServerError.alreadyStarted) { _ = try await server.start() }
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/stalls"))
            while server.journal.entries().isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            try await server.shutdown()
            let read = await connection.read(window: .seconds(60))
            #expect(read.bytes.isEmpty)
            #expect(read.ending == .closed || read.ending == .reset)
            await #expect(throws: RawSocketError.self) { _ = try await RawConnection.connect(port: address.port) }
        }
    }

    @Test func logsOneLinePerRequestUnlessQuiet() async throws {
        let lines = LogCapture()
        var configuration = ServerConfiguration(idleTimeout: patientIdleTimeout, quiet: false)
        configuration.logger = lines.logger
        try await withServer(configuration: configuration) { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/api/v1/announcements/1"))
            _ = await connection.readResponse()
        }
        #expect(lines.messages.count == 1)
        #expect(lines.messages.first?.contains("GET /api/v1/announcements/1 -> 200 getAnnouncement") == true)

        let quiet = LogCapture()
        var quietConfiguration = ServerConfiguration(idleTimeout: patientIdleTimeout, quiet: true)
        quietConfiguration.logger = quiet.logger
        try await withServer(configuration: quietConfiguration) { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/x"))
            _ = await connection.readResponse()
        }
        #expect(quiet.messages.isEmpty)
    }

    @Test func addressesBecomeClientURLs() {
        #expect(ServerAddress(host: "127.0.0.1", port: 80, adminPort: 81).baseURL.absoluteString == "http://127.0.0.1:80")
        #expect(ServerAddress(host: "127.0.0.1", port: 80, adminPort: 81).adminBaseURL?.absoluteString == "http://127.0.0.1:81")
        #expect(ServerAddress(host: "0.0.0.0", port: 8, adminPort: nil).baseURL.absoluteString == "http://127.0.0.1:8")
        #expect(ServerAddress(host: "::", port: 8, adminPort: nil).baseURL.absoluteString == "http://[::1]:8")
        #expect(ServerAddress(host: "localhost", port: 8, adminPort: nil).adminBaseURL == nil)
    }
}
