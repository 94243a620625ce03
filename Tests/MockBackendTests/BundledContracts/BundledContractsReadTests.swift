import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

@Suite struct BundledContractsReadTests {
    typealias S = BundledContractsTestSupport

    func get(_ backend: ModelBackend, _ uri: String, headers: HTTPHeaders = [:]) async -> MockResponse {
        await backend.respond(to: MockRequest(method: .GET, uri: uri, headers: headers))
    }

    @Test func getByIdAnswersExactlyThe18KeysAndNeverThePassword() async throws {
        let backend = try S.backend()
        let created = try #require(await backend.respond(to: S.createRequest(S.createBody())).json?.objectValue)
        let id = try #require(created["id"]?.stringValue)
        let response = await get(backend, "/api/v1/announcements/\(id)")
        #expect(response.status == .ok)
        #expect(response.contractViolation == nil)
        let json = try #require(response.json?.objectValue)
        #expect(json.keys == BundledContractsTestSupport.storedAnnouncementKeys)
        var expected = created
        expected["managementPassword"] = nil
        #expect(json == expected)
    }

    @Test(arguments: ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "..", "%2e%2e", "abc%2Fphotos"])
    func anUnknownIdIsNotFound(id: String) async throws {
        let backend = try S.backend(fixtures: true)
        let response = await get(backend, "/api/v1/announcements/\(id)")
        #expect(response.status == .notFound)
        #expect(response.errorCode == "NOT_FOUND")
        #expect(response.contractViolation == nil)
    }

    @Test(arguments: [
        ("GET", "/api/v2/announcements"), ("GET", "/nope"), ("PUT", "/api/v1/announcements"), ("PATCH", "/api/v1/announcements/x"),
        ("GET", "/api/v1/announcements/x/photos"), ("POST", "/api/health"), ("GET", "/images"), ("GET", "/images/../contracts/fixtures/pets.json"),
        ("GET", "/images/..%2F..%2Fcontracts%2Ffixtures%2Fpets.json"), ("GET", "/%zz"), ("GET", "/api/v1/announcements/%2F"),
    ])
    func unknownRoutesAnswerTheNotFoundEnvelope(method: String, path: String) async throws {
        let backend = try S.backend(fixtures: true)
        let response = await backend.respond(to: MockRequest(method: HTTPMethod(rawValue: method), uri: path))
        #expect(response.status == .notFound)
        #expect(response.errorCode == "NOT_FOUND")
        #expect(response.json?["error"]?["requestId"]?.stringValue == response.headers.first(name: "request-id"))
        #expect(response.contractViolation == nil)
    }

    @Test func healthAnswersOkWithATimestamp() async throws {
        let backend = try S.backend()
        let response = await get(backend, "/api/health")
        #expect(response.status == .ok)
        #expect(response.json?["status"] == "ok")
        #expect(response.json?["timestamp"] == "2025-11-20T12:00:00.000Z")
        #expect(response.contractViolation == nil)
    }

    @Test func everyAnswerAllowsAnyOriginAndPreflightsSucceed() async throws {
        let backend = try S.backend()
        for uri in ["/api/health", "/nope", "/api/v1/announcements"] {
            #expect(await get(backend, uri).headers.first(name: "Access-Control-Allow-Origin") == "*")
        }
        let preflight = await backend.respond(to: MockRequest(
            method: .OPTIONS, uri: "/api/v1/announcements",
            headers: ["Origin": "http://localhost:8080", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,authorization"]))
        #expect(preflight.status == .noContent)
        #expect(preflight.headers.first(name: "Access-Control-Allow-Origin") == "*")
        #expect(preflight.headers.first(name: "Access-Control-Allow-Methods")?.contains("POST") == true)
        // The grant the contracts' browser-facing endpoints need, not the requested headers reflected.
        #expect(preflight.headers.first(name: "Access-Control-Allow-Headers") == "Authorization,Content-Type")
        #expect(preflight.headers.first(name: "Access-Control-Allow-Methods")?.contains("DELETE") == false)
        // The CORS layer answers before the request id exists (petspot-api.md, "Quirks").
        #expect(preflight.headers.first(name: "request-id") == nil)
    }

    @Test func anOversizedBodyOnARouteThatReadsNoBodyIsIgnored() async throws {
        let backend = try S.backend(fixtures: true)
        let head = MockRequest(method: .GET, uri: "/api/v1/announcements/0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101")
        #expect(backend.bodyLimit(for: head) < 1024 * 1024)
        let response = await backend.respondToOversizedBody(head)
        #expect(response.status == .ok)
        #expect(response.json?["petName"] == "Rex")
        #expect(response.contractViolation == nil)
        #expect(await backend.respondToOversizedBody(MockRequest(method: .POST, uri: "/nope")).errorCode == "NOT_FOUND")
    }

    @Test func headAnswersLikeGetWithoutABody() async throws {
        let backend = try S.backend()
        let response = await backend.respond(to: MockRequest(method: .HEAD, uri: "/api/health"))
        #expect(response.status == .ok)
        #expect(response.body.readableBytes == 0)
    }

    @Test func theListHoldsOnlyAnnouncementsWithAPhotoInCreationOrder() async throws {
        let backend = try S.backend(fixtures: true)
        let response = await get(backend, "/api/v1/announcements")
        #expect(response.status == .ok)
        let items = try #require(response.json?["data"]?.arrayValue)
        #expect(items.count == 3)
        #expect(items.allSatisfy { $0["photoUrl"]?.stringValue != nil })
        #expect(items.map { $0["petName"]?.stringValue } == ["Rex", "Mruczek", "Biscuit"])
        #expect(items.allSatisfy { $0.objectValue?.keys == BundledContractsTestSupport.storedAnnouncementKeys })
    }

    @Test func theListFiltersByGreatCircleDistanceWithA5KmDefault() async throws {
        let backend = try S.backend(fixtures: true)
        // Rex (52.2297, 21.0122), Mruczek (52.24, 21.02) and Biscuit (52.235, 21.005) are in Warsaw; nothing listed is in Kraków.
        func names(_ query: String) async throws -> [String] {
            let response = await get(backend, "/api/v1/announcements?\(query)")
            #expect(response.status == .ok, "\(query)")
            return try #require(response.json?["data"]?.arrayValue).compactMap { $0["petName"]?.stringValue }.sorted()
        }
        // Rex is at exactly this point, where SQLite's acos argument rounds above 1: NULL, so the backend leaves him out.
        #expect(try await names("lat=52.2297&lng=21.0122") == ["Biscuit", "Mruczek"])
        // Mruczek is ~1.26 km from Rex, Biscuit ~0.77 km.
        #expect(try await names("lat=52.2296&lng=21.0122&range=1") == ["Biscuit", "Rex"])
        #expect(try await names("lat=52.2296&lng=21.0122&range=2") == ["Biscuit", "Mruczek", "Rex"])
        #expect(try await names("lat=52.2440&lng=21.0200&range=1") == ["Mruczek"])
        #expect(try await names("lat=50.0614&lng=19.9366").isEmpty)
        #expect(try await names("lat=50.0614&lng=19.9366&range=300") == ["Biscuit", "Mruczek", "Rex"])
        #expect(try await names("range=1") == ["Biscuit", "Mruczek", "Rex"])
    }

    @Test(arguments: [
        ("lat=abc&lng=21", "lat"), ("lat=91&lng=21", "lat"), ("lat=52&lng=-181", "lng"), ("lat=52", "lng"), ("lng=21", "lat"),
        ("lat=&lng=21", "lat"), ("lat=52&lng=21&range=0", "range"), ("lat=52&lng=21&range=-3", "range"),
        ("lat=52&lng=21&range=1.5", "range"), ("lat=52&lng=21&range=abc", "range"), ("lat=1e3&lng=21", "lat"),
    ])
    func badListParametersAreInvalidParameter(query: String, field: String) async throws {
        let backend = try S.backend()
        let response = await get(backend, "/api/v1/announcements?\(query)")
        #expect(response.status == .badRequest)
        #expect(response.errorCode == "INVALID_PARAMETER")
        #expect(response.errorField == field)
        #expect(response.contractViolation == nil)
    }
}
