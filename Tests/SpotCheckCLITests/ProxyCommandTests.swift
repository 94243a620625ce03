import ArgumentParser
import Foundation
import MockBackend
import Testing

@testable import MockCommands
@testable import spotcheck

@Suite struct ProxyCommandTests {
    static let contracts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("contracts").path

    @Test func targetIsRequiredAndNumbersAreChecked() {
        #expect(throws: (any Error).self) { try ProxyCommand.parse([]) }
        #expect(throws: (any Error).self) { try ProxyCommand.parse(["--target", "http://x", "--port", "70000"]) }
        #expect(throws: (any Error).self) { try ProxyCommand.parse(["--target", "http://x", "--timeout", "0"]) }
    }

    @Test func aBadTargetOrBadRulesExitWith2() async throws {
        for arguments in [["--target", "https://example.com"], ["--target", "http://127.0.0.1:1", "--fault", "x:explode"], ["--target", "nope"]] {
            let command = try ProxyCommand.parse(arguments + ["--contracts", Self.contracts])
            guard case .failure(let failure) = await command.start() else {
                Issue.record("\(arguments) started")
                continue
            }
            #expect(failure.outcome.exitCode == 2)
            #expect(failure.outcome.output.hasPrefix("spotcheck proxy: "))
        }
    }

    @Test func startsWithFaultsAndContractIdsAndPrintsItsURL() async throws {
        let upstream = MockServer(configuration: ServerConfiguration(quiet: true), responder: OKResponder(), faults: FaultLayer(),
                                  journal: Journal(), admin: nil, contractID: { _, _ in nil })
        let address = try await upstream.start()
        do {
            let command = try ProxyCommand.parse(["--target", address.baseURL.absoluteString, "--quiet", "--contracts", Self.contracts,
                                                  "--fault", "createAnnouncement:503"])
            let proxy = try await command.start().get()
            do {
                let banner = ProxyCommand.banner(for: proxy, target: command.target)
                #expect(banner.hasPrefix("Proxying http://127.0.0.1:\(proxy.port) -> \(address.baseURL.absoluteString)\n"))
                #expect(proxy.faults.rules.first?.selector.contract == "createAnnouncement")
                #expect(proxy.server.contractID("POST", "/api/v1/announcements") == "createAnnouncement")
                try await proxy.shutdown()
            } catch {
                try? await proxy.shutdown()
                throw error
            }
            try await upstream.shutdown()
        } catch {
            try? await upstream.shutdown()
            throw error
        }
    }
}

/// Answers 200 to everything.
private struct OKResponder: MockResponder {
    func respond(to request: MockRequest) async -> MockResponse { MockResponse(status: .ok) }
}
