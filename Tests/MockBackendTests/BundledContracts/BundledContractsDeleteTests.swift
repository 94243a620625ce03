import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

@Suite struct BundledContractsDeleteTests {
    typealias S = BundledContractsTestSupport

    @Test func theAdminTokenDeletesTheAnnouncementAndItsPhoto() async throws {
        let backend = try S.backend(fixtures: true, adminToken: "s3cret")
        let id = "0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101"
        let response = await backend.respond(to: MockRequest(method: .DELETE, uri: "/api/v1/announcements/\(id)", headers: ["Authorization": "s3cret"]))
        #expect(response.status == .noContent)
        #expect(response.body.readableBytes == 0)
        #expect(response.contractViolation == nil)
        #expect(await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/\(id)")).status == .notFound)
        #expect(await backend.respond(to: MockRequest(method: .GET, uri: "/images/\(id).png")).status == .notFound)
    }

    @Test(arguments: [nil, "", "wrong", "s3cret "] as [String?])
    func withoutTheRightTokenDeleteIsUnauthenticated(token: String?) async throws {
        let backend = try S.backend(fixtures: true, adminToken: "s3cret")
        var headers = HTTPHeaders()
        if let token { headers.add(name: "Authorization", value: token) }
        let response = await backend.respond(to: MockRequest(method: .DELETE, uri: "/api/v1/announcements/0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101", headers: headers))
        #expect(response.status == .unauthorized)
        #expect(response.errorCode == "UNAUTHENTICATED")
        // The backend tests `!authHeader`, so an empty value is missing too.
        #expect(response.errorMessage == (token == nil || token == "" ? "Missing Authorization header" : "Invalid admin token"))
        #expect(response.contractViolation == nil)
        #expect(backend.store.count == 6)
    }

    @Test func withNoTokenConfiguredNothingCanBeDeleted() async throws {
        let backend = try S.backend(fixtures: true, adminToken: nil)
        let response = await backend.respond(to: MockRequest(method: .DELETE, uri: "/api/v1/announcements/0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101", headers: ["Authorization": ""]))
        #expect(response.status == .unauthorized)
    }

    @Test func deletingAnUnknownIdIsNotFound() async throws {
        let backend = try S.backend(adminToken: "s3cret")
        let response = await backend.respond(to: MockRequest(method: .DELETE, uri: "/api/v1/announcements/nope", headers: ["Authorization": "s3cret"]))
        #expect(response.status == .notFound)
        #expect(response.errorCode == "NOT_FOUND")
        #expect(response.contractViolation == nil)
    }

    @Test func aFixtureMicrochipIsTakenUntilItsAnnouncementIsDeleted() async throws {
        let backend = try S.backend(fixtures: true, adminToken: "s3cret")
        let body = S.createBody([("microchipNumber", "123456789012")])
        #expect(await backend.respond(to: S.createRequest(body)).status == .conflict)
        let delete = MockRequest(method: .DELETE, uri: "/api/v1/announcements/0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101", headers: ["Authorization": "s3cret"])
        #expect(await backend.respond(to: delete).status == .noContent)
        #expect(await backend.respond(to: S.createRequest(body)).status == .created)
        backend.store.reset()
        #expect(await backend.respond(to: S.createRequest(body)).status == .conflict)
    }

    @Test func resetRestoresTheFixturesAndTheSeededSequence() async throws {
        let backend = try S.backend(seed: 3, fixtures: true)
        let first = await backend.respond(to: S.createRequest(S.createBody())).json?["id"]
        #expect(backend.store.count == 7)
        backend.store.reset()
        #expect(backend.store.count == 6)
        let again = await backend.respond(to: S.createRequest(S.createBody())).json?["id"]
        #expect(first != nil)
        #expect(first == again)
    }
}
