import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// Deleting is an administrator's act on the main port too (issue 29, finding 1): a page on another site cannot delete
/// with the public default token, the preflight grants only what the contracts' browser-facing endpoints need, and the
/// app, curl and `--allow-browser-admin` work as before.
@Suite struct BrowserAdminActTests {
    /// The real backend's token, which DELETE takes on loopback without `--admin-token`.
    private let token = "tajnehasloadmina"

    private func withMock<T>(allowBrowserAdmin: Bool = false, _ body: (ContractMock) async throws -> T) async throws -> T {
        // No admin token: DELETE takes the real backend's token on loopback, which is what a page would try.
        try await withPetSpotMock(fixtures: true, adminToken: nil, allowBrowserAdmin: allowBrowserAdmin, body)
    }

    private func ids(_ mock: ContractMock) -> [String] {
        mock.backend.store.snapshot(limit: 100).newest.map(\.id)
    }

    private func delete(_ path: String, port: Int, _ headers: [(String, String)]) -> String {
        var text = "DELETE \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: \(token)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return text + "\r\n"
    }

    private func message(_ read: RawRead) -> String {
        (try? JSONValue(parsing: Data(read.body ?? [])))?["error"]?["message"]?.stringValue ?? ""
    }

    @Test func aPageOnAnotherSiteCannotDeleteOnEitherMount() async throws {
        try await withMock { mock in
            let before = ids(mock)
            let id = try #require(before.first)
            let connection = try await RawConnection.connect(port: mock.port)
            defer { connection.close() }
            let browsers: [[(String, String)]] = [
                [("Origin", "http://evil.example"), ("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "cors")],
                [("Origin", "http://localhost:5173"), ("Sec-Fetch-Site", "same-site")],
                [("Sec-Fetch-Site", "cross-site")],
                [("Origin", "null")],
            ]
            for path in ["/api/v1/announcements/\(id)", "/api/admin/v1/announcements/\(id)"] {
                for headers in browsers {
                    try await connection.send(delete(path, port: mock.port, headers))
                    let answer = await connection.readResponse()
                    #expect(answer.status == 403, "\(path) \(headers)")
                    #expect(message(answer).contains("--allow-browser-admin"), "\(message(answer))")
                    #expect(!answer.text.lowercased().contains("access-control-allow"))
                }
            }
            #expect(ids(mock) == before)
            // The refusal is the harness's answer, not traffic: the journal does not list it.
            #expect(mock.journal.entries().isEmpty)
        }
    }

    @Test func theAppCurlAndThisServersOwnPageStillDelete() async throws {
        try await withMock { mock in
            let all = ids(mock)
            let connection = try await RawConnection.connect(port: mock.port)
            defer { connection.close() }
            // No Origin, no Sec-Fetch-*: the app or curl.
            try await connection.send(delete("/api/v1/announcements/\(all[0])", port: mock.port, []))
            #expect(await connection.readResponse().status == 204)
            try await connection.send(delete("/api/admin/v1/announcements/\(all[1])", port: mock.port, []))
            #expect(await connection.readResponse().status == 204)
            // A page served by this server (same origin).
            try await connection.send(delete("/api/v1/announcements/\(all[2])", port: mock.port,
                                             [("Origin", "http://127.0.0.1:\(mock.port)"), ("Sec-Fetch-Site", "same-origin")]))
            #expect(await connection.readResponse().status == 204)
            #expect(ids(mock) == Array(all.dropFirst(3)))
        }
    }

    @Test func allowBrowserAdminBringsBackTheRealBackendsBehaviour() async throws {
        try await withMock(allowBrowserAdmin: true) { mock in
            let id = try #require(ids(mock).first)
            let connection = try await RawConnection.connect(port: mock.port)
            defer { connection.close() }
            try await connection.send(delete("/api/v1/announcements/\(id)", port: mock.port,
                                             [("Origin", "http://evil.example"), ("Sec-Fetch-Site", "cross-site")]))
            #expect(await connection.readResponse().status == 204)
            let http = PetSpotHTTP(mock)
            let preflight = try await http.send("OPTIONS", "/api/v1/announcements/\(id)", headers: [
                "Origin": "http://evil.example", "Access-Control-Request-Method": "DELETE", "Access-Control-Request-Headers": "authorization,x-evil"])
            #expect(preflight.header("Access-Control-Allow-Methods")?.contains("DELETE") == true)
            #expect(preflight.header("Access-Control-Allow-Headers") == "authorization,x-evil")
        }
    }

    @Test func thePreflightGrantsOnlyWhatTheBrowserFacingEndpointsNeed() async throws {
        try await withMock { mock in
            let http = PetSpotHTTP(mock)
            for path in ["/api/v1/announcements/abc", "/api/v1/announcements", "/api/v1/announcements/abc/photos"] {
                let preflight = try await http.send("OPTIONS", path, headers: [
                    "Origin": "http://evil.example", "Access-Control-Request-Method": "DELETE",
                    "Access-Control-Request-Headers": "authorization,content-type,x-evil"])
                #expect(preflight.status == 204)
                let methods = Set((preflight.header("Access-Control-Allow-Methods") ?? "").split(separator: ",").map(String.init))
                #expect(methods == ["GET", "HEAD", "POST"], "\(path)")
                let headers = (preflight.header("Access-Control-Allow-Headers") ?? "").lowercased()
                #expect(headers.split(separator: ",").map(String.init).sorted() == ["authorization", "content-type"], "\(path)")
                #expect(preflight.header("Vary") == nil)
            }
            // Reads stay open to every origin, as the web app needs.
            let list = try await http.get("/api/v1/announcements", headers: ["Origin": "http://evil.example"])
            #expect(list.header("Access-Control-Allow-Origin") == "*")
        }
    }

    @Test func theGrantIsReadFromTheContracts() throws {
        let endpoints = BrowserFacingEndpoints(contracts: try BundledContractsTestSupport.loadedContracts())
        #expect(endpoints.adminContractIDs == ["deleteAnnouncement", "adminDeleteAnnouncement"])
        #expect(endpoints.methods == ["GET", "HEAD", "POST"])
        #expect(endpoints.headers == ["Authorization", "Content-Type"])
        #expect(endpoints.isAdmin(contract: "deleteAnnouncement"))
        #expect(!endpoints.isAdmin(contract: "uploadPhoto"))
        #expect(!endpoints.isAdmin(contract: nil))
    }

    @Test func aRepeatedOriginOrSecFetchHeaderIsRefusedOnAnAdminAct() async throws {
        try await withMock { mock in
            let before = ids(mock)
            let id = try #require(before.first)
            let connection = try await RawConnection.connect(port: mock.port)
            defer { connection.close() }
            let own = "http://127.0.0.1:\(mock.port)"
            for headers in [[("Origin", own), ("Origin", "http://evil.example")],
                            [("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Site", "cross-site")]] {
                try await connection.send(delete("/api/v1/announcements/\(id)", port: mock.port, headers))
                let answer = await connection.readResponse()
                #expect(answer.status == 400, "\(headers)")
                #expect(message(answer).contains("more than once"))
            }
            #expect(ids(mock) == before)
        }
    }

    @Test func theProxyRefusesTheSameDeleteBeforeForwardingIt() async throws {
        try await withServer(responder: EchoResponder()) { upstream, address in
            let contracts = try BundledContractsTestSupport.loadedContracts()
            // No fault rule: the proxy streams, and must still hand the delete to the check.
            let proxy = try await FaultProxy.start(target: address.baseURL, contracts: contracts, idleTimeout: patientIdleTimeout)
            do {
                let connection = try await RawConnection.connect(port: proxy.port)
                defer { connection.close() }
                try await connection.send(delete("/api/v1/announcements/abc", port: proxy.port,
                                                 [("Origin", "http://evil.example"), ("Sec-Fetch-Site", "cross-site")]))
                let refused = await connection.readResponse()
                #expect(refused.status == 403)
                #expect(message(refused).contains("--allow-browser-admin"))
                #expect(upstream.journal.entries().isEmpty)
                try await connection.send(delete("/api/v1/announcements/abc", port: proxy.port, []))
                #expect(await connection.readResponse().status != 403)
                #expect(upstream.journal.entries().count == 1)
                try await proxy.shutdown()
            } catch {
                try? await proxy.shutdown()
                throw error
            }
        }
    }
}
