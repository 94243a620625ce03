import ArgumentParser
import Foundation
import ContractModel
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
                // The admin API and dashboard get a port of their own by default, never the forwarded one.
                let adminPort = try #require(proxy.address.adminPort)
                #expect(adminPort != proxy.port)
                #expect(banner.contains("\nAdmin API on http://127.0.0.1:\(adminPort)/__spotcheck/\n"))
                #expect(banner.contains("\nDashboard on http://127.0.0.1:\(adminPort)/__spotcheck/\n"))
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

extension ProxyCommandTests {
    @Test func anExplicitAdminPortIsKept() async throws {
        let free = try await Self.freePort()
        let command = try ProxyCommand.parse(["--target", "http://127.0.0.1:9", "--quiet", "--contracts", Self.contracts,
                                              "--admin-port", "\(free)"])
        let proxy = try await command.start().get()
        #expect(proxy.address.adminPort == free)
        #expect(ProxyCommand.banner(for: proxy, target: command.target).contains("Dashboard on http://127.0.0.1:\(free)/__spotcheck/\n"))
        try await proxy.shutdown()
    }

    /// A port that was free a moment ago: bound on 0 by a throwaway server, which is then stopped.
    private static func freePort() async throws -> Int {
        let probe = MockServer(configuration: ServerConfiguration(quiet: true), responder: OKResponder(), faults: FaultLayer(),
                               journal: Journal(), admin: nil, contractID: { _, _ in nil })
        let port = try await probe.start().port
        try await probe.shutdown()
        return port
    }
}

/// Answers 200 to everything.
private struct OKResponder: MockResponder {
    func respond(to request: MockRequest) async -> MockResponse { MockResponse(status: .ok) }
}
