import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import MockCommands
@testable import spotcheck

/// `spotcheck proxy` ending a run: shutdown over the admin API, --junit/--json written, --fail-on-violation's exit code.
@Suite struct ProxyRunReportTests {
    static let contracts = ProxyCommandTests.contracts

    private func withMock<T>(drift: Set<ContractDrift>, _ body: (ContractMock) async throws -> T) async throws -> T {
        var options = ContractMock.Options(contracts: try ContractSet.load(from: URL(fileURLWithPath: Self.contracts)), quiet: true,
                                                 checkResponses: false)
        options.drift = drift
        let mock = try await ContractMock.start(options)
        do {
            let result = try await body(mock)
            try await mock.shutdown()
            return result
        } catch {
            try? await mock.shutdown()
            throw error
        }
    }

    private func send(_ method: String, _ url: URL, json: String? = nil) async throws -> ExactHTTPClient.Answer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return try await ExactHTTPClient(timeout: .seconds(120)).send(request)
    }

    private static let createBody = #"{"species": "DOG", "sex": "MALE", "locationLatitude": 52.2, "locationLongitude": 21.0, "email": "a@example.com", "lastSeenDate": "2025-11-18", "status": "MISSING"}"#

    /// Runs one create through the proxy, stops it over the admin API, and returns the exit code and the report files.
    private func run(drift: Set<ContractDrift>) async throws -> (status: Int32, junit: String, json: JSONValue) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("proxy.xml"), json = folder.appendingPathComponent("proxy.json")
        return try await withMock(drift: drift) { mock in
            let command = try ProxyCommand.parse(["--target", mock.baseURL.absoluteString, "--quiet", "--contracts", Self.contracts,
                                                  "--junit", junit.path, "--json", json.path, "--fail-on-violation"])
            let proxy = try await command.start().get()
            let created = try await send("POST", proxy.baseURL.appendingPathComponent("api/v1/announcements"), json: Self.createBody)
            #expect(created.status == 201)
            let shutdown = try await send("POST", proxy.adminBaseURL.appendingPathComponent("__spotcheck/shutdown"))
            #expect(shutdown.status == 202)
            await proxy.server.shutdownRequest.wait()
            let status = try await command.stop(proxy)
            return (status, try String(contentsOf: junit, encoding: .utf8), try JSONValue(parsing: Data(contentsOf: json)))
        }
    }

    @Test func aViolationFailsTheRunAndIsInBothReports() async throws {
        let (status, junit, json) = try await run(drift: [.renamedManagementPassword])
        #expect(status == 1)
        #expect(junit.contains(#"<testcase classname="spotcheck proxy -&gt; "#))
        #expect(junit.contains(#"name="createAnnouncement">"#))
        #expect(junit.contains("<failure"))
        #expect(junit.contains("/managementPassword"))
        #expect((json["totals"]?["violations"]?.intValue ?? 0) > 0)
        #expect(json["violations"]?.arrayValue?.first?["side"] == "server")
        #expect(json["coverage"]?["observed"] == 1)
    }

    @Test func aFaithfulServerPassesTheRun() async throws {
        let (status, junit, json) = try await run(drift: [])
        #expect(status == 0)
        #expect(!junit.contains("<failure"))
        #expect(json["totals"]?["violations"] == 0)
        #expect(json["totals"]?["exchanges"] == 1)
        let missing = json["coverage"]?["missing"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(!missing.contains("createAnnouncement 201"))
        #expect(missing.contains("uploadPhoto 201"))
    }

    @Test func serveReportsCoverageAndTheProxyListsAnswersSeenOnlyFromTheMock() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-coverage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let coverage = folder.appendingPathComponent("mock-coverage.json")
        let serve = try ServeCommand.parse(["--contracts", Self.contracts, "--port", "0", "--quiet", "--coverage-out", coverage.path])
        let mock = try await serve.start().get()
        _ = try await send("GET", mock.baseURL.appendingPathComponent("api/health"))
        _ = try await send("POST", mock.baseURL.appendingPathComponent("api/v1/announcements"), json: Self.createBody)
        let live = try JSONValue(parsing: Data(try await send("GET", mock.baseURL.appendingPathComponent("__spotcheck/coverage")).body))
        #expect(live["source"] == "mock")
        #expect(live["observed"] == 2)
        try await mock.shutdown()
        #expect(serve.traffic.finish(mock.server, name: "spotcheck serve") == 0)
        // A proxy given that coverage, seeing only the health check from its target, lists the create apart.
        try await withMock(drift: []) { target in
            let command = try ProxyCommand.parse(["--target", target.baseURL.absoluteString, "--quiet", "--contracts", Self.contracts,
                                                  "--mock-coverage", coverage.path])
            let proxy = try await command.start().get()
            _ = try await send("GET", proxy.baseURL.appendingPathComponent("api/health"))
            let report = try JSONValue(parsing: Data(try await send("GET", proxy.adminBaseURL.appendingPathComponent("__spotcheck/coverage")).body))
            #expect(try await command.stop(proxy) == 0)
            #expect(report["onlyFromMock"]?.arrayValue?.compactMap(\.stringValue) == ["createAnnouncement 201"])
        }
    }
}
