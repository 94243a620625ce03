import ContractKit
import Foundation
import NIOCore
import Testing
@testable import ContractModel
@testable import MockBackend

/// Records admin resets.
final class ResetRecorder: AdminHooks, @unchecked Sendable {
    private let calls = Calls()
    var count: Int { calls.value }
    func reset() async { calls.increment() }
}

@Suite struct AdminAPITests {
    private func json(_ read: RawRead) throws -> JSONValue {
        try JSONValue(parsing: Data(read.body ?? []))
    }

    @Test func healthJournalAndClear() async throws {
        try await withServer { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/api/v1/announcements/1"))
            _ = await connection.readResponse()
            try await connection.send(rawRequest("GET", "/__spotcheck/health"))
            let health = await connection.readResponse()
            #expect(health.status == 200)
            #expect(try json(health)["status"] == "ok")
            try await connection.send(rawRequest("GET", "/__spotcheck/journal"))
            let journal = try json(await connection.readResponse())
            let entries = journal["entries"]?.arrayValue ?? []
            // Admin requests never land in the journal, so a test's own bookkeeping does not count as traffic.
            #expect(entries.count == 1)
            #expect(entries.first?["contract"] == "getAnnouncement")
            #expect(entries.first?["status"] == 200)
            // A summary leaves out what is absent.
            #expect(entries.first?["fault"] == nil)
            #expect(entries.first?["time"]?.stringValue?.hasSuffix("Z") == true)
            try await connection.send(rawRequest("DELETE", "/__spotcheck/journal"))
            #expect(await connection.readResponse().status == 204)
            try await connection.send(rawRequest("GET", "/__spotcheck/journal"))
            #expect(try json(await connection.readResponse())["entries"] == .array([]))
        }
    }

    @Test func resetCallsTheHookAndClearsJournalAndCounters() async throws {
        let hooks = ResetRecorder()
        let rule = FaultRule(calls: [1...1], fault: .status(503))
        try await withServer(rules: [rule], admin: hooks) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/a"))
            #expect(await connection.readResponse().status == 503)
            try await connection.send(rawRequest("GET", "/a"))
            #expect(await connection.readResponse().status == 200)
            try await connection.send(rawRequest("POST", "/__spotcheck/reset"))
            #expect(await connection.readResponse().status == 204)
            #expect(hooks.count == 1)
            #expect(server.journal.entries().isEmpty)
            try await connection.send(rawRequest("GET", "/a"))
            #expect(await connection.readResponse().status == 503)
        }
    }

    @Test func faultsCanBeReadReplacedAndRemovedAtRuntime() async throws {
        try await withServer { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            let rules = #"{"rules": [{"name": "boom", "contract": "getAnnouncement", "fault": {"kind": "status", "status": 500}}]}"#
            try await connection.send(rawRequest("PUT", "/__spotcheck/faults", body: rules, headers: jsonType))
            #expect(await connection.readResponse().status == 200)
            #expect(server.faults.rules.map(\.name) == ["boom"])
            try await connection.send(rawRequest("GET", "/__spotcheck/faults"))
            let listed = try json(await connection.readResponse())
            #expect(listed["rules"]?.arrayValue?.first?["fault"]?["status"] == 500)
            try await connection.send(rawRequest("GET", "/api/v1/announcements/7"))
            #expect(await connection.readResponse().status == 500)
            try await connection.send(rawRequest("DELETE", "/__spotcheck/faults"))
            #expect(await connection.readResponse().status == 204)
            try await connection.send(rawRequest("GET", "/api/v1/announcements/7"))
            #expect(await connection.readResponse().status == 200)
            #expect(server.journal.entries().map(\.rule) == ["boom", nil])
        }
    }

    @Test func badRulesAreRejectedWithTheirPointer() async throws {
        try await withServer { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            let rules = #"{"rules": [{"fault": {"kind": "explode"}}]}"#
            try await connection.send(rawRequest("PUT", "/__spotcheck/faults", body: rules, headers: jsonType))
            let read = await connection.readResponse()
            #expect(read.status == 400)
            #expect(try json(read)["error"]?["pointer"] == "/rules/0/fault/kind")
            try await connection.send(rawRequest("PUT", "/__spotcheck/faults", body: "{nope", headers: jsonType))
            #expect(await connection.readResponse().status == 400)
            #expect(server.faults.rules.isEmpty)
        }
    }

    @Test func unknownRoutesAndMethods() async throws {
        try await withServer { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/__spotcheck/nothing"))
            #expect(await connection.readResponse().status == 404)
            try await connection.send(rawRequest("POST", "/__spotcheck/journal"))
            let read = await connection.readResponse()
            #expect(read.status == 405)
            #expect(read.text.lowercased().contains("allow: get, delete"))
        }
    }

    @Test func aConfiguredTokenIsRequired() async throws {
        let configuration = ServerConfiguration(adminToken: "s3cret", idleTimeout: patientIdleTimeout, quiet: true)
        try await withServer(configuration: configuration) { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/__spotcheck/health"))
            #expect(await connection.readResponse().status == 401)
            try await connection.send(rawRequest("GET", "/__spotcheck/health", headers: ["X-SpotCheck-Admin-Token": "wrong"]))
            #expect(await connection.readResponse().status == 401)
            try await connection.send(rawRequest("GET", "/__spotcheck/health", headers: ["X-SpotCheck-Admin-Token": "s3cret"]))
            #expect(await connection.readResponse().status == 200)
        }
    }

    @Test func beyondLoopbackWithoutATokenTheAdminAPIIsOff() async {
        let api = AdminAPI(journal: Journal(), faults: FaultLayer(), hooks: nil, token: nil, loopback: false)
        let response = await api.handle(MockRequest(method: .GET, uri: "/__spotcheck/health"))
        #expect(response.status == .forbidden)
        let withToken = AdminAPI(journal: Journal(), faults: FaultLayer(), hooks: nil, token: "t", loopback: false)
        let allowed = await withToken.handle(MockRequest(method: .GET, uri: "/__spotcheck/health", headers: ["x-spotcheck-admin-token": "t"]))
        #expect(allowed.status == .ok)
        #expect(ServerConfiguration(host: "0.0.0.0").isLoopback == false)
        #expect(ServerConfiguration(host: "127.0.0.1").isLoopback)
        #expect(ServerConfiguration(host: "localhost").isLoopback)
    }

    @Test func theAdminPortServesOnlyTheAdminAPI() async throws {
        let configuration = ServerConfiguration(adminPort: 0, idleTimeout: patientIdleTimeout, quiet: true)
        try await withServer(configuration: configuration) { _, address in
            let adminPort = try #require(address.adminPort)
            #expect(adminPort != address.port)
            let connection = try await RawConnection.connect(port: adminPort)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/__spotcheck/health"))
            #expect(await connection.readResponse().status == 200)
            try await connection.send(rawRequest("GET", "/api/v1/announcements/1"))
            #expect(await connection.readResponse().status == 404)
            try await connection.send(rawRequest("POST", "/api/v1/announcements", body: "{}"))
            #expect(await connection.readResponse().status == 404)
        }
    }
}
