import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing

/// Reading, listing, deleting, health, CORS and the admin reset over HTTP.
@Suite struct BundledContractsHTTPReadTests {
    typealias S = BundledContractsTestSupport

    @Test func getByIdAnswers200Or404() async throws {
        try await withPetSpotMock(fixtures: true) { mock in
            let http = PetSpotHTTP(mock)
            let found = try await http.get("/api/v1/announcements/0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101")
            #expect(found.status == 200)
            #expect(found.json?["petName"] == "Rex")
            #expect(found.json?.objectValue?.count == 18)
            #expect(found.contractViolation == nil)
            let missing = try await http.get("/api/v1/announcements/00000000-0000-4000-8000-000000000000")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "NOT_FOUND")
            #expect(missing.contractViolation == nil)
        }
    }

    @Test func theListFiltersAndRejectsBadParameters() async throws {
        try await withPetSpotMock(fixtures: true) { mock in
            let http = PetSpotHTTP(mock)
            let all = try await http.get("/api/v1/announcements")
            #expect(all.status == 200)
            #expect(all.json?["data"]?.arrayValue?.count == 3)
            let near = try await http.get("/api/v1/announcements?lat=52.244&lng=21.02&range=1")
            #expect(near.json?["data"]?.arrayValue?.compactMap { $0["petName"]?.stringValue } == ["Mruczek"])
            let far = try await http.get("/api/v1/announcements?lat=50.06&lng=19.94")
            #expect(far.json?["data"]?.arrayValue?.isEmpty == true)
            #expect(far.contractViolation == nil)
            for (query, field) in [("lat=1", "lng"), ("lat=x&lng=1", "lat"), ("lat=1&lng=1&range=0", "range")] {
                let bad = try await http.get("/api/v1/announcements?\(query)")
                #expect(bad.status == 400)
                #expect(bad.errorCode == "INVALID_PARAMETER")
                #expect(bad.errorField == field)
                #expect(bad.contractViolation == nil)
            }
        }
    }

    @Test func deleteNeedsTheAdminToken() async throws {
        try await withPetSpotMock(fixtures: true, adminToken: "tok") { mock in
            let http = PetSpotHTTP(mock)
            let path = "/api/v1/announcements/1a9b3c7d-2e4f-4061-9b72-c8d9e0f1a202"
            let denied = try await http.send("DELETE", path)
            #expect(denied.status == 401)
            #expect(denied.errorCode == "UNAUTHENTICATED")
            let deleted = try await http.send("DELETE", path, headers: ["Authorization": "tok"])
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            #expect(deleted.contractViolation == nil)
            #expect(try await http.get(path).status == 404)
            #expect(await mock.recordCount() == 5)
        }
    }

    @Test func healthAndUnknownRoutes() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            let health = try await http.get("/api/health")
            #expect(health.status == 200)
            #expect(health.json?["status"] == "ok")
            #expect(health.json?["timestamp"]?.stringValue != nil)
            #expect(health.contractViolation == nil)
            let unknown = try await http.send("PUT", "/api/v1/announcements")
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "NOT_FOUND")
            #expect(unknown.json?["error"]?["requestId"]?.stringValue == unknown.header("request-id"))
        }
    }

    @Test func corsIsOpenForWhatTheWebAppDoes() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            let preflight = try await http.send(
                "OPTIONS", "/api/v1/announcements/abc/photos",
                headers: ["Origin": "https://petspot.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"])
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "*")
            #expect(preflight.header("Access-Control-Allow-Headers")?.lowercased().contains("authorization") == true)
            #expect(preflight.header("Access-Control-Allow-Methods")?.contains("POST") == true)
            // Deleting is an administrator's act: no page on another site gets a grant for it (docs/security.md).
            #expect(preflight.header("Access-Control-Allow-Methods")?.contains("DELETE") == false)
            let get = try await http.get("/api/v1/announcements", headers: ["Origin": "https://petspot.example"])
            #expect(get.header("Access-Control-Allow-Origin") == "*")
        }
    }

    @Test func theAdminResetRestoresTheFixtures() async throws {
        try await withPetSpotMock(fixtures: true, adminToken: "tok") { mock in
            let http = PetSpotHTTP(mock)
            _ = try await http.create()
            #expect(await mock.recordCount() == 7)
            let reset = try await http.send("POST", "/__spotcheck/reset", headers: ["X-SpotCheck-Admin-Token": "tok"])
            #expect((200..<300).contains(reset.status))
            #expect(await mock.recordCount() == 6)
        }
    }

    @Test func faultRulesGivenAtStartApplyToTheirContract() async throws {
        let rules = try FaultRule.parseRules(
            try JSONValue(parsing: #"{"rules": [{"contract": "uploadPhoto", "calls": [1], "fault": {"kind": "status", "status": 503}}]}"#),
            file: "inline")
        try await withPetSpotMock(faults: rules) { mock in
            let http = PetSpotHTTP(mock)
            let (id, password) = try await http.create()
            #expect(try await http.upload(id: id, authorization: S.basic(id, password), bytes: S.png).status == 503)
            #expect(try await http.upload(id: id, authorization: S.basic(id, password), bytes: S.png).status == 201)
            #expect(mock.journal.entries().compactMap(\.fault) == ["status"])
        }
    }
}
