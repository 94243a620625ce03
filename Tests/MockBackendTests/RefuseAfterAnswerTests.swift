import ContractKit
import Foundation
import Testing
@testable import MockBackend

/// `refuseAfterAnswer`: the selected request gets its answer, and the port is closed before the answer is written,
/// so the client's next request meets a refused connect (offline), not a kept-alive connection dropped under it.
@Suite struct RefuseAfterAnswerTests {
    @Test func theTriggerIsAnsweredThenTheNextConnectIsRefused() async throws {
        let rules = [FaultRule(name: "offline after this", selector: FaultSelector(path: "/first"), fault: .refuseAfterAnswer())]
        try await withServer(rules: rules) { server, address in
            let bystander = try await RawConnection.connect(port: address.port)
            defer { bystander.close() }
            try await bystander.send(rawRequest("GET", "/idle"))
            #expect(await bystander.readResponse().status == 200)

            let trigger = try await RawConnection.connect(port: address.port)
            defer { trigger.close() }
            try await trigger.send(rawRequest("GET", "/first"))
            let answer = await trigger.readResponse()
            #expect(answer.status == 200)
            #expect(answer.text.lowercased().contains("connection: close"))
            #expect(server.isRefusing)
            await #expect(throws: RawSocketError(code: ECONNREFUSED)) { _ = try await RawConnection.connect(port: address.port) }
            #expect(await bystander.read(window: .seconds(60)).ending == .closed)
            #expect(server.journal.entries().map(\.fault) == [nil, "refuseAfterAnswer"])
            #expect(server.journal.entries().last?.status == 200)
        }
    }

    @Test func aWindowOfNoTimeAnswersClosesTheOthersAndKeepsListening() async throws {
        let rules = [FaultRule(selector: FaultSelector(path: "/first"), fault: .refuseAfterAnswer(ms: 0))]
        try await withServer(rules: rules) { server, address in
            let bystander = try await RawConnection.connect(port: address.port)
            defer { bystander.close() }
            try await bystander.send(rawRequest("GET", "/idle"))
            #expect(await bystander.readResponse().status == 200)

            let trigger = try await RawConnection.connect(port: address.port)
            defer { trigger.close() }
            try await trigger.send(rawRequest("GET", "/first"))
            let answer = await trigger.readResponse()
            #expect(answer.status == 200)
            #expect(answer.text.lowercased().contains("connection: close"))
            #expect(await bystander.read(window: .seconds(60)).ending == .closed)
            #expect(!server.isRefusing)
            let next = try await RawConnection.connect(port: address.port)
            defer { next.close() }
            try await next.send(rawRequest("GET", "/next"))
            #expect(await next.readResponse().status == 200)
        }
    }

    @Test func theRuleParsesWithAnOptionalWindow() throws {
        let rules = try FaultRule.parseRules(try JSONValue(parsing: Data(#"[{"fault": {"kind": "refuseAfterAnswer", "ms": 500}}]"#.utf8)), file: "t.json")
        #expect(rules.map(\.fault) == [.refuseAfterAnswer(ms: 500)])
        #expect(Fault.refuseAfterAnswer(ms: 500).json == .object(["kind": "refuseAfterAnswer", "ms": 500]))
    }
}
