import ContractKit
import Foundation
import Testing

@testable import ContractModel
@testable import MockBackend

/// The proxy's admin API and dashboard answer on its admin port only: its forwarded port serves the target's pages, which
/// must neither read the journal (every client's Authorization) nor change the rules. The target here is itself a
/// SpotCheck mock, whose own admin API must not answer through the proxy either.
@Suite struct ProxyAdminPortTests {
    private let rules = #"{"rules": [{"name": "boom", "contract": "getAnnouncement", "fault": {"kind": "status", "status": 500}}]}"#

    /// A raw request with exactly these headers and a Content-Length body.
    private func request(_ method: String, _ path: String, port: Int, headers: [(String, String)] = [], body: String = "") -> String {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return text + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    private func withProxyInFrontOfAMock(_ body: (ContractMock, RunningFaultProxy) async throws -> Void) async throws {
        try await withPetSpotMock(adminToken: nil) { mock in
            let proxy = try await FaultProxy.start(target: mock.baseURL, contracts: try BundledContractsTestSupport.loadedContracts(), idleTimeout: patientIdleTimeout)
            do {
                try await body(mock, proxy)
                try await proxy.shutdown()
            } catch {
                try? await proxy.shutdown()
                throw error
            }
        }
    }

    @Test func theForwardedPortNeitherAnswersNorForwardsTheAdminAPI() async throws {
        try await withProxyInFrontOfAMock { mock, proxy in
            let adminPort = try #require(proxy.address.adminPort)
            #expect(adminPort != proxy.port)
            let created = try await PetSpotHTTP(url: proxy.baseURL).create()
            let journalBefore = proxy.journal.entries().count
            let connection = try await RawConnection.connect(port: proxy.port)
            defer { connection.close() }
            let same = [("Origin", "http://127.0.0.1:\(proxy.port)"), ("Sec-Fetch-Site", "same-origin")]
            for (method, path, body) in [("GET", "/__spotcheck/journal", ""), ("GET", "/__spotcheck/", ""),
                                         ("PUT", "/__spotcheck/faults", rules), ("POST", "/__spotcheck/reset", "")] {
                try await connection.send(request(method, path, port: proxy.port, headers: same + [("Content-Type", "application/json")], body: body))
                let read = await connection.readResponse(window: .seconds(30))
                #expect(read.status == 404, "\(method) \(path)")
                // It says where the dashboard is, and leaks nothing of the journal (the create's password).
                #expect(read.text.contains("http://127.0.0.1:\(adminPort)/__spotcheck/"), "\(read.text)")
                #expect(!read.text.contains(created.password) && !read.text.contains(created.id))
            }
            #expect(proxy.faults.rules.isEmpty)
            #expect(mock.server.faults.rules.isEmpty)
            #expect(proxy.journal.entries().count == journalBefore)
            #expect(mock.server.journal.entries().allSatisfy { !$0.path.hasPrefix("/__spotcheck") })
            #expect(mock.backend.store.count == 1)
        }
    }

    @Test func theAdminPortAnswersAndTrustsOnlyItsOwnPages() async throws {
        try await withProxyInFrontOfAMock { _, proxy in
            let adminPort = try #require(proxy.address.adminPort)
            _ = try await PetSpotHTTP(url: proxy.baseURL).create()
            let journal = try await PetSpotHTTP(url: proxy.adminBaseURL).get("/__spotcheck/journal")
            #expect(journal.status == 200)
            #expect(journal.json?["entries"]?.arrayValue?.count == 1)
            let connection = try await RawConnection.connect(port: adminPort)
            defer { connection.close() }
            // A page served through the forwarded port is another origin to the admin port, even on the same host.
            for site in ["same-site", "same-origin"] {
                try await connection.send(request("PUT", "/__spotcheck/faults", port: adminPort, headers: [
                    ("Origin", "http://127.0.0.1:\(proxy.port)"), ("Sec-Fetch-Site", site), ("Content-Type", "application/json")], body: rules))
                #expect(await connection.readResponse(window: .seconds(30)).status == 403, "\(site)")
            }
            #expect(proxy.faults.rules.isEmpty)
            // The dashboard the admin port serves, and curl, still change the rules.
            try await connection.send(request("PUT", "/__spotcheck/faults", port: adminPort, headers: [
                ("Origin", "http://127.0.0.1:\(adminPort)"), ("Sec-Fetch-Site", "same-origin"), ("Content-Type", "application/json")], body: rules))
            #expect(await connection.readResponse(window: .seconds(30)).status == 200)
            #expect(proxy.faults.rules.map(\.name) == ["boom"])
        }
    }
}
