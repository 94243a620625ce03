import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// What each fault looks like on the wire, seen through a raw socket.
@Suite struct FaultWireTests {
    private func only(_ fault: Fault, calls: [ClosedRange<Int>]? = nil) -> [FaultRule] {
        [FaultRule(name: "under test", calls: calls, fault: fault)]
    }

    @Test func statusAnswersTheInjectedErrorWithoutTheBackend() async throws {
        let responder = EchoResponder()
        let rules = only(.status(503, body: .object(["error": "busy"]), headers: ["Retry-After": "1"]))
        try await withServer(rules: rules, responder: responder) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("POST", "/api/v1/announcements", body: "{}"))
            let read = await connection.readResponse()
            #expect(read.status == 503)
            #expect(read.text.contains("Retry-After: 1"))
            #expect(read.body == Array(#"{"error":"busy"}"#.utf8))
            #expect(responder.calls.value == 0)
            let entry = try #require(server.journal.entries().first)
            #expect(entry.status == 503 && entry.fault == "status" && entry.rule == "under test")
            #expect(entry.contract == "createAnnouncement")
        }
    }

    @Test func delayAnswersNormallyAfterTheDelay() async throws {
        let responder = EchoResponder()
        try await withServer(rules: only(.delay(ms: 150)), responder: responder) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/x"))
            let read = await connection.readResponse()
            #expect(read.status == 200)
            #expect(responder.calls.value == 1)
            let entry = try #require(server.journal.entries().first)
            #expect(entry.fault == "delay" && entry.status == 200)
            #expect(entry.durationMs >= 150)
        }
    }

    @Test func stallNeverAnswers() async throws {
        let responder = EchoResponder()
        try await withServer(rules: only(.stall), responder: responder) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/x"))
            let read = await connection.read(window: .milliseconds(500))
            #expect(read.bytes.isEmpty)
            #expect(read.ending == .silent)
            #expect(responder.calls.value == 0)
            let entry = try #require(server.journal.entries().first)
            #expect(entry.fault == "stall" && entry.status == nil)
        }
    }

    @Test func stallOutlivesTheIdleTimeout() async throws {
        let configuration = ServerConfiguration(idleTimeout: .seconds(1), quiet: true)
        try await withServer(rules: only(.stall), configuration: configuration) { server, address in
            // Connecting and sending on one thread keeps the idle timer from firing before the request is in.
            let connection = try await RawConnection.connect(port: address.port, sending: rawRequest("GET", "/x"))
            defer { connection.close() }
            let read = await connection.read(window: .milliseconds(2500))
            #expect(server.journal.entries().first?.fault == "stall")
            #expect(read.ending == .silent)
        }
    }

    @Test func dropClosesInOrderWithZeroBytes() async throws {
        let responder = EchoResponder()
        try await withServer(rules: only(.drop), responder: responder) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/x"))
            let read = await connection.read(window: .seconds(60))
            #expect(read.bytes.isEmpty)
            #expect(read.ending == .closed)
            #expect(responder.calls.value == 0)
            #expect(server.journal.entries().first?.fault == "drop")
        }
    }

    @Test func resetSendsARealRST() async throws {
        try await withServer(rules: only(.reset)) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/x"))
            let read = await connection.read(window: .seconds(60))
            #expect(read.bytes.isEmpty)
            #expect(read.ending == .reset)
            #expect(server.journal.entries().first?.fault == "reset")
        }
    }

    @Test func truncateDeliversExactlyTheConfiguredBodyBytes() async throws {
        var responder = EchoResponder()
        responder.padding = 500
        try await withServer(rules: only(.truncate(bytes: 10)), responder: responder) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/x"))
            let read = await connection.read(window: .seconds(60))
            #expect(read.status == 200)
            #expect(read.body?.count == 10)
            let declared = read.text.lowercased().components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
            let length = Int(declared?.split(separator: " ").last ?? "") ?? 0
            #expect(length > 500)
            #expect(read.ending == .closed)
            #expect(responder.calls.value == 1)
            #expect(server.journal.entries().first?.fault == "truncate")
        }
    }

    @Test func malformedIsA2xxThatIsNotJSON() async throws {
        let responder = EchoResponder()
        try await withServer(rules: only(.malformed()), responder: responder) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("POST", "/api/v1/announcements", body: "{}"))
            let read = await connection.readResponse()
            #expect(read.status == 201)
            #expect(read.text.lowercased().contains("content-type: application/json"))
            #expect((try? JSONValue(parsing: Data(read.body ?? []))) == nil)
            #expect(responder.calls.value == 1)
            #expect(server.journal.entries().first?.status == 201)
            // The connection stays usable: malformed is about the body, not the transport.
            try await connection.send(rawRequest("GET", "/again"))
            #expect(await connection.readResponse().status == 200)
        }
    }

    @Test func malformedHonoursItsStatusAndBody() async throws {
        try await withServer(rules: only(.malformed(status: 202, body: "nope"))) { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/x"))
            let read = await connection.readResponse()
            #expect(read.status == 202)
            #expect(read.body == Array("nope".utf8))
        }
    }

    @Test func slowBodyDripsTheWholeAnswerInChunks() async throws {
        var responder = EchoResponder()
        responder.padding = 60
        let expected = await responder.respond(to: MockRequest(method: .GET, uri: "/x")).body.readableBytes
        try await withServer(rules: only(.slowBody(chunkBytes: 8, intervalMs: 50)), responder: responder) { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/x"))
            var total = RawRead(bytes: [], ending: .silent)
            var pieces = 0
            while (total.body?.count ?? -1) < expected {
                let part = await connection.read(window: .seconds(60), limit: 1)
                guard !part.bytes.isEmpty else { break }
                total.bytes += part.bytes
                if total.body != nil { pieces += 1 }
            }
            #expect(total.status == 200)
            #expect(total.body?.count == expected)
            #expect(pieces >= 2)
            // Keep-alive survives a slow body.
            try await connection.send(rawRequest("GET", "/after"))
            #expect(await connection.readResponse().status == 200)
        }
    }

    @Test func refuseClosesTheListenerAndKeepsTheAdminPortUp() async throws {
        let configuration = ServerConfiguration(adminPort: 0, idleTimeout: patientIdleTimeout, quiet: true)
        let rule = FaultRule(selector: FaultSelector(path: "/offline"), fault: .refuse(ms: nil))
        try await withServer(rules: [rule], configuration: configuration) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/offline"))
            let read = await connection.read(window: .seconds(60))
            #expect(read.bytes.isEmpty)
            #expect(read.ending != .silent)
            #expect(server.isRefusing)
            await #expect(throws: RawSocketError(code: ECONNREFUSED)) { _ = try await RawConnection.connect(port: address.port) }

            let admin = try await RawConnection.connect(port: try #require(address.adminPort))
            defer { admin.close() }
            try await admin.send(rawRequest("GET", "/__spotcheck/health"))
            #expect(await admin.readResponse().status == 200)
            // Removing the rules over the admin port ends the refusal.
            try await admin.send(rawRequest("DELETE", "/__spotcheck/faults"))
            #expect(await admin.readResponse().status == 204)
            while server.isRefusing { try await Task.sleep(for: .milliseconds(20)) }
            let again = try await RawConnection.connect(port: address.port)
            defer { again.close() }
            try await again.send(rawRequest("GET", "/y"))
            #expect(await again.readResponse().status == 200)
        }
    }

    @Test func afterARefuseWindowTheSamePortAcceptsAgain() async throws {
        try await withServer(rules: only(.refuse(ms: 200), calls: [1...1])) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/x"))
            let read = await connection.read(window: .seconds(60))
            #expect(read.bytes.isEmpty)
            while server.isRefusing { try await Task.sleep(for: .milliseconds(20)) }
            let again = try await RawConnection.connect(port: address.port)
            defer { again.close() }
            try await again.send(rawRequest("GET", "/y"))
            #expect(await again.readResponse().status == 200)
            #expect(server.journal.entries().map(\.fault) == ["refuse", nil])
            #expect(server.address?.port == address.port)
        }
    }

    @Test func aRefuseOfNoTimeClosesTheConnectionButNeverTheListener() async throws {
        try await withServer(rules: only(.refuse(ms: 0), calls: [1...1])) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/x"))
            let read = await connection.read(window: .seconds(60))
            #expect(read.bytes.isEmpty)
            #expect(read.ending != .silent)
            // No waiting for a re-bind: the very next connect is accepted, because the listener never closed.
            #expect(!server.isRefusing)
            let again = try await RawConnection.connect(port: address.port)
            defer { again.close() }
            try await again.send(rawRequest("GET", "/y"))
            #expect(await again.readResponse().status == 200)
            #expect(server.journal.entries().map(\.fault) == ["refuse", nil])
        }
    }

    @Test func aStandingRefuseOfNoTimeEndsAnEarlierWindowAndLeavesTheAdminAPIReachable() async throws {
        let log = LogCapture()
        let configuration = ServerConfiguration(idleTimeout: patientIdleTimeout, logger: log.logger, quiet: true)
        try await withServer(rules: [FaultRule(fault: .refuse())], configuration: configuration) { server, address in
            #expect(server.isRefusing)
            server.faults.replaceRules([FaultRule(fault: .refuse(ms: 0))])
            while server.isRefusing { try await Task.sleep(for: .milliseconds(20)) }
            // Installed again while listening, it leaves the listener alone: only the first rule ever closed it.
            server.faults.replaceRules([FaultRule(name: "again", fault: .refuse(ms: 0))])
            #expect(log.messages.filter { $0.hasPrefix("refusing connections") }.count == 1, "\(log.messages)")
            let admin = try await RawConnection.connect(port: address.port)
            defer { admin.close() }
            try await admin.send(rawRequest("DELETE", "/__spotcheck/faults"))
            #expect(await admin.readResponse().status == 204)
            #expect(!server.isRefusing)
        }
    }

    @Test func refuseClosesKeptAliveConnectionsToo() async throws {
        try await withServer(rules: [FaultRule(selector: FaultSelector(path: "/offline"), fault: .refuse(ms: nil))]) { server, address in
            let bystander = try await RawConnection.connect(port: address.port)
            defer { bystander.close() }
            try await bystander.send(rawRequest("GET", "/a"))
            #expect(await bystander.readResponse().status == 200)
            let trigger = try await RawConnection.connect(port: address.port)
            defer { trigger.close() }
            try await trigger.send(rawRequest("GET", "/offline"))
            _ = await trigger.read(window: .seconds(60))
            let read = await bystander.read(window: .seconds(60))
            #expect(read.ending == .closed)
            #expect(server.isRefusing)
        }
    }

    @Test func anUnconditionalRefuseRuleTakesTheServerOfflineUntilRulesChange() async throws {
        try await withServer(rules: [FaultRule(fault: .refuse())]) { server, address in
            #expect(server.isRefusing)
            await #expect(throws: RawSocketError(code: ECONNREFUSED)) { _ = try await RawConnection.connect(port: address.port) }
            // The port stays held, so no other server can be handed it while the mock is offline.
            #expect(!canBind(address.port))
            server.faults.replaceRules([])
            while server.isRefusing { try await Task.sleep(for: .milliseconds(20)) }
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/back"))
            #expect(await connection.readResponse().status == 200)
        }
    }

    @Test func faultsNeverLeakToOtherConnections() async throws {
        let rules = [
            FaultRule(selector: FaultSelector(path: "/stall"), fault: .stall),
            FaultRule(selector: FaultSelector(path: "/reset"), fault: .reset),
            FaultRule(selector: FaultSelector(path: "/drop"), fault: .drop),
        ]
        try await withServer(rules: rules) { _, address in
            let bystander = try await RawConnection.connect(port: address.port)
            defer { bystander.close() }
            try await bystander.send(rawRequest("GET", "/ok"))
            #expect(await bystander.readResponse().status == 200)
            for path in ["/stall", "/reset", "/drop"] {
                let victim = try await RawConnection.connect(port: address.port)
                defer { victim.close() }
                try await victim.send(rawRequest("GET", path))
                _ = await victim.read(window: .milliseconds(200))
                try await bystander.send(rawRequest("GET", "/ok"))
                #expect(await bystander.readResponse().status == 200, "after \(path)")
            }
        }
    }
}
