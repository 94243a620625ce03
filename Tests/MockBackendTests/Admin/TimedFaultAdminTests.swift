import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// Time-based rules through the admin API and on the wire, with the server's fault layer on a virtual clock.
@Suite struct TimedFaultAdminTests {
    private func json(_ read: RawRead) throws -> JSONValue {
        try JSONValue(parsing: Data(read.body ?? []))
    }

    private func header(_ read: RawRead, _ name: String) -> String? {
        read.text.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    @Test func aQuotaPutThroughTheAdminAPIRoundTripsAndAnswers429WithRateLimitHeadersOnTheWire() async throws {
        let clock = VirtualFaultClock()
        let server = MockServer(configuration: ServerConfiguration(idleTimeout: patientIdleTimeout, quiet: true), responder: EchoResponder(),
                                faults: FaultLayer(rules: [], seed: 1, clock: clock), journal: Journal(), admin: nil, contractID: TestContracts.id)
        let address = try await server.start()
        do {
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            let rules = #"{"rules": [{"name": "2 per 10 s", "quota": {"limit": 2, "windowSeconds": 10}}, {"name": "down", "contract": "uploadPhoto", "outage": {"after": 0, "seconds": 30}}]}"#
            try await connection.send(rawRequest("PUT", "/__spotcheck/faults", body: rules, headers: jsonType))
            let put = await connection.readResponse()
            #expect(put.status == 200)
            try await connection.send(rawRequest("GET", "/__spotcheck/faults"))
            let listed = try json(await connection.readResponse())
            #expect(try FaultRule.parseRules(listed, file: "GET") == FaultRule.parseRules(JSONValue(parsing: rules), file: "PUT"))
            #expect(listed["rules"]?.arrayValue?[0]["quota"] == ["limit": 2, "windowSeconds": 10])
            #expect(listed["rules"]?.arrayValue?[0]["fault"] == ["kind": "status", "status": 429])

            for _ in 0..<2 {
                try await connection.send(rawRequest("GET", "/a"))
                #expect(await connection.readResponse().status == 200)
            }
            clock.advance(by: 3)
            try await connection.send(rawRequest("GET", "/a"))
            let refused = await connection.readResponse()
            #expect(refused.status == 429)
            #expect(header(refused, "Retry-After") == "7")
            #expect(header(refused, "RateLimit-Limit") == "2")
            #expect(header(refused, "RateLimit-Remaining") == "0")
            #expect(header(refused, "RateLimit-Reset") == "7")
            #expect(server.journal.entries().last?.rule == "2 per 10 s")

            try await connection.send(rawRequest("GET", "/__spotcheck/faults/active"))
            let active = try json(await connection.readResponse())
            #expect(active["rules"]?.arrayValue?[0]["schedule"] == "quota: 2 per 10 s (shared)")
            #expect(active["rules"]?.arrayValue?[1]["schedule"] == "outage: waits for the first matching call")

            clock.advance(by: 7)
            try await connection.send(rawRequest("GET", "/a"))
            #expect(await connection.readResponse().status == 200, "a new window opened")
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    @Test func aBadTimedRuleIsA400NamingThePointer() async throws {
        try await withServer { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("POST", "/__spotcheck/faults/rules", body: #"{"ramp": {"from": 0, "to": 2, "seconds": 5}}"#, headers: jsonType))
            let answer = await connection.readResponse()
            #expect(answer.status == 400)
            #expect(try json(answer)["error"]?["pointer"] == "/ramp/to")
        }
    }
}
