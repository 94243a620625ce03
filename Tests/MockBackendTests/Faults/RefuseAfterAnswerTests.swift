import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// `refuseAfterAnswer`: the selected request gets its answer, and the port is closed before the answer is written,
/// so the client's next request meets a refused connect (offline), not a kept-alive connection dropped under it.
@Suite struct RefuseAfterAnswerTests {
    /// A connection answered once and kept alive, then the trigger `/first`, whose answer must come with
    /// `Connection: close`; the caller closes both.
    private func keptAliveBystanderAndAnsweredTrigger(port: Int) async throws -> (bystander: RawConnection, trigger: RawConnection) {
        let bystander = try await RawConnection.connect(port: port)
        try await bystander.send(rawRequest("GET", "/idle"))
        #expect(await bystander.readResponse().status == 200)

        let trigger = try await RawConnection.connect(port: port)
        try await trigger.send(rawRequest("GET", "/first"))
        let answer = await trigger.readResponse()
        #expect(answer.status == 200)
        #expect(answer.text.lowercased().contains("connection: close"))
        return (bystander, trigger)
    }

    @Test func theTriggerIsAnsweredThenTheNextConnectIsRefused() async throws {
        let rules = [FaultRule(name: "offline after this", selector: FaultSelector(path: "/first"), fault: .refuseAfterAnswer())]
        try await withServer(rules: rules) { server, address in
            let (bystander, trigger) = try await keptAliveBystanderAndAnsweredTrigger(port: address.port)
            defer { bystander.close(); trigger.close() }
            #expect(server.isRefusing)
            await #expect(throws: RawSocketError(code: ECONNREFUSED)) { _ = try await RawConnection.connect(port: address.port) }
            #expect(await bystander.read(window: .seconds(60)).ending == .closed)
            #expect(server.journal.entries().map(\.fault) == [nil, "refuseAfterAnswer"])
            #expect(server.journal.entries().last?.status == 200)
        }
    }

    @Test func aWindowOfNoTimeAnswersClosesTheOthersAndKeepsListening() async throws {
        let rules = [FaultRule(selector: FaultSelector(path: "/first"), fault: .refuseAfterAnswer(ms: 0))]
        let log = LogCapture()
        let configuration = ServerConfiguration(idleTimeout: patientIdleTimeout, logger: log.logger, quiet: true)
        try await withServer(rules: rules, configuration: configuration) { server, address in
            let (bystander, trigger) = try await keptAliveBystanderAndAnsweredTrigger(port: address.port)
            defer { bystander.close(); trigger.close() }
            #expect(await bystander.read(window: .seconds(60)).ending == .closed)
            #expect(!server.isRefusing)
            #expect(!log.messages.contains { $0.hasPrefix("refusing connections") }, "the listener never closed: \(log.messages)")
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
