import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// The event-loop answer path must give exactly what the task path gives, and step aside only for big uploads.
@Suite struct ImmediateResponseTests {
    typealias S = BundledContractsTestSupport

    /// Two backends with the same seed, so their ids, passwords and request ids repeat in step.
    func twins() throws -> (ModelBackend, ModelBackend) {
        (try S.backend(seed: 11, fixtures: true), try S.backend(seed: 11, fixtures: true))
    }

    @Test func everyRouteAnswersTheSameOnBothPaths() async throws {
        let (now, later) = try twins()
        var requests: [MockRequest] = [S.createRequest(S.createBody())]
        let created = await later.respond(to: requests[0])
        let id = try #require(created.json?["id"]?.stringValue)
        let password = try #require(created.json?["managementPassword"]?.stringValue)
        _ = try #require(now.immediateResponse(to: requests[0]))
        requests = [
            MockRequest(method: .GET, uri: "/api/v1/announcements/\(id)"),
            S.uploadRequest(id: id, authorization: S.basic(id, password), body: S.multipart(bytes: S.png)),
            MockRequest(method: .GET, uri: "/api/v1/announcements?lat=52.2297&lng=21.0122&range=10"),
            MockRequest(method: .GET, uri: "/api/v1/announcements/\(id)"),
            MockRequest(method: .GET, uri: "/api/health"),
            MockRequest(method: .GET, uri: "/api/v1/announcements/nope"),
            MockRequest(method: .OPTIONS, uri: "/api/v1/announcements", headers: ["Access-Control-Request-Headers": "authorization"]),
            MockRequest(method: .DELETE, uri: "/api/v1/announcements/\(id)", headers: ["Authorization": "admin-secret"]),
            S.createRequest(S.createBody([("species", "  ")])),
        ]
        for request in requests {
            let immediate = try #require(now.immediateResponse(to: request), "\(request.method) \(request.uri)")
            let awaited = await later.respond(to: request)
            #expect(immediate.status == awaited.status, "\(request.method) \(request.uri)")
            #expect(immediate.headers == awaited.headers, "\(request.method) \(request.uri)")
            #expect(immediate.body == awaited.body, "\(request.method) \(request.uri)")
        }
    }

    @Test func aBigUploadWaitsForTheTaskPathAndStillSucceeds() async throws {
        let backend = try S.backend()
        let created = await backend.respond(to: S.createRequest(S.createBody()))
        let id = try #require(created.json?["id"]?.stringValue)
        let password = try #require(created.json?["managementPassword"]?.stringValue)
        let photo = S.png + [UInt8](repeating: 0, count: ModelExecutor.offloadThreshold)
        let upload = S.uploadRequest(id: id, authorization: S.basic(id, password), body: S.multipart(bytes: photo))
        #expect(backend.immediateResponse(to: upload) == nil)
        let answer = await backend.respond(to: upload)
        #expect(answer.status == .created)
        let stored = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/\(id)"))
        #expect(stored.json?["photoUrl"] == .string("/images/\(id).png"))
    }

    @Test func theDriftResponderBendsImmediateAnswersToo() throws {
        let drifted = DriftResponder(wrapping: try S.backend(), drifts: [.renamedManagementPassword, .missingRequestID], contracts: try S.loadedContracts())
        let answer = try #require(drifted.immediateResponse(to: S.createRequest(S.createBody())))
        #expect(answer.status == .created)
        #expect(answer.json?["password"]?.stringValue?.count == 6)
        #expect(answer.json?["managementPassword"] == nil)
        #expect(answer.headers["request-id"].isEmpty)
    }

    @Test func theCreateAnswerPutsThePasswordLastAfterTheStoredJSON() async throws {
        let backend = try S.backend()
        let created = await backend.respond(to: S.createRequest(S.createBody()))
        let object = try #require(created.json?.objectValue)
        let id = try #require(object["id"]?.stringValue)
        #expect(object.keys.last == "managementPassword")
        let stored = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/\(id)"))
        var withoutPassword = object
        withoutPassword["managementPassword"] = nil
        #expect(stored.json == .object(withoutPassword))
        #expect(stored.json?.objectValue?.keys == BundledContractsTestSupport.storedAnnouncementKeys)
    }

    @Test func aStoredPhotoChangesOnlyPhotoUrlAndUpdatedAtOfTheCachedJSON() async throws {
        let backend = try S.backend()
        let created = await backend.respond(to: S.createRequest(S.createBody([("description", "Tab\there, \"quoted\" and ünïcode")])))
        let id = try #require(created.json?["id"]?.stringValue)
        let password = try #require(created.json?["managementPassword"]?.stringValue)
        let before = try #require(await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/\(id)")).json?.objectValue)
        #expect(backend.store.setPhoto(id: id, bytes: S.png, type: .png, updatedAt: "2026-01-02T03:04:05.678Z"))
        let after = try #require(await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/\(id)")).json?.objectValue)
        #expect(after.keys == before.keys)
        for key in before.keys where key != "photoUrl" && key != "updatedAt" { #expect(after[key] == before[key], "\(key)") }
        #expect(after["photoUrl"] == .string("/images/\(id).png"))
        #expect(after["updatedAt"] == "2026-01-02T03:04:05.678Z")
        #expect(after["description"] == "Tab\there, \"quoted\" and ünïcode")
        #expect(backend.store.authenticate(id: id, password: password) == .ok)
    }
}
