import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing
@testable import ScenarioEngine

/// A document whose base path or route the target does not serve gets one finding, not a failure per request; a served
/// route is never reported, whatever it answers a bodiless request without credentials.
@Suite struct ServedRouteProbeTests {
    /// A copy of the bundled contracts with only `keep`, each path rewritten by `path`; deleted by the caller.
    static func folder(keeping keep: [String], path: (String) -> String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("served-routes-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ContractSet.bundledDirectory, to: url)
        for file in try FileManager.default.contentsOfDirectory(atPath: url.path) where file.hasSuffix(".json") {
            let name = String(file.dropLast(5))
            guard !["service", "known-defects"].contains(name) else { continue }
            let fileURL = url.appendingPathComponent(file)
            guard keep.contains(name) else {
                try FileManager.default.removeItem(at: fileURL)
                continue
            }
            guard case .object(var contract) = try JSONValue(parsing: Data(contentsOf: fileURL)) else { continue }
            contract["path"] = contract["path"]?.stringValue.map { .string(path($0)) }
            try JSONValue.object(contract).data(pretty: true).write(to: fileURL)
        }
        try? FileManager.default.removeItem(at: url.appendingPathComponent("known-defects.json"))
        return url
    }

    static func probe(keeping keep: [String], path: @escaping (String) -> String) async throws -> ServedRouteProbe.Outcome {
        let folder = try Self.folder(keeping: keep, path: path)
        defer { try? FileManager.default.removeItem(at: folder) }
        let contracts = try ContractSet.load(from: folder)
        let server = try await ContractMock.start(.init(contracts: try ContractSet.load(from: ContractSet.bundledDirectory), quiet: true))
        let outcome = await ServedRouteProbe(contracts: contracts, target: server.baseURL, timeout: .seconds(120)).probe()
        try await server.shutdown()
        return outcome
    }

    @Test func aBasePathTheTargetDoesNotServeIsOneFinding() async throws {
        let outcome = try await Self.probe(keeping: ["create-announcement", "list-announcements", "get-announcement"]) {
            $0.replacingOccurrences(of: "/api/v1/", with: "/v1/")
        }
        let finding = try #require(outcome.findings.first)
        #expect(outcome.findings.count == 1)
        #expect(finding.basePath == "/v1/announcements")
        #expect(outcome.unserved == ["createAnnouncement", "listAnnouncements", "getAnnouncement"])
        #expect(finding.message.hasPrefix("the target serves none of the 3 operation(s), all under /v1/announcements: "))
        #expect(finding.evidence.hasSuffix("is answered 404 like a route nobody has"))
    }

    @Test func oneRouteTheTargetDoesNotServeIsNamedAlone() async throws {
        let outcome = try await Self.probe(keeping: ["create-announcement", "list-announcements", "get-announcement"]) { path in
            path == "/api/v1/announcements" ? path : path.replacingOccurrences(of: "/api/v1/announcements", with: "/api/v1/listings")
        }
        #expect(outcome.findings.isEmpty, "the id route cannot be judged: an unknown id may answer like an unknown route")
        let listed = try await Self.probe(keeping: ["list-announcements", "health"]) { path in
            path.replacingOccurrences(of: "/api/v1/announcements", with: "/api/v1/listings")
        }
        #expect(listed.findings.count == 1)
        #expect(listed.findings.first?.basePath == nil)
        #expect(listed.findings.first?.operations == ["listAnnouncements"])
        #expect(listed.findings.first?.message.hasPrefix("the target does not serve /api/v1/listings (listAnnouncements): GET /api/v1/listings") == true)
    }

    @Test func servedRoutesAreNeverReported() async throws {
        // A bodiless create is refused, a credential-less DELETE too: both are served routes, not findings.
        let outcome = try await Self.probe(keeping: ["create-announcement", "list-announcements", "delete-announcement", "health"]) { $0 }
        #expect(outcome.findings.isEmpty)
    }

    @Test func rewritesTryEachLeadingPartReplacedByEachBase() throws {
        let contracts = try ContractSet.load(from: ContractSet.bundledDirectory)
        func rewritten(_ unserved: String) -> [String] {
            ServedRouteProbe.candidateRewrites(contracts, unserved: unserved).map { $0.to + unserved.dropFirst($0.from.count) }
        }
        // A base path added (/v1 served under /api) and a segment replaced (/api served as /api/v1) are both tried.
        #expect(rewritten("/v1/announcements").prefix(3) == ["/api/v1/v1/announcements", "/api/v1/announcements", "/v1/v1/announcements"])
        #expect(rewritten("/api/announcements").contains("/api/v1/announcements"))
        // Never the whole prefix: the operation's own last segment stays.
        #expect(!rewritten("/api/announcements").contains("/api/v1"))
        #expect(Set(rewritten("/v1/announcements")).count == rewritten("/v1/announcements").count)
    }

    @Test func theCommonLiteralPrefixIsTheBasePath() {
        let paths = ["/v1/pets", "/v1/pets/{id}", "/v1/owners"].compactMap(PathTemplate.init)
        #expect(ServedRouteProbe.commonPrefix(paths) == "/v1")
        #expect(ServedRouteProbe.commonPrefix(["/pets", "/owners"].compactMap(PathTemplate.init)) == nil)
    }
}
