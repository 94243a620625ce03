import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// The mock serves whatever the contracts folder says: a contract file added or removed changes the routes, a contract
/// without state is answered from its examples, and `service.json` decides headers and server-wide answers (issue 27).
@Suite struct ContractRoutingTests {
    typealias S = BundledContractsTestSupport

    /// A copy of a contracts folder in a fresh temporary directory, removed by `cleanUp`.
    struct FolderCopy {
        let root: URL
        var contracts: URL { root.appendingPathComponent("contracts") }

        init(of source: URL = ContractSet.bundledDirectory) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("routing-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: root.appendingPathComponent("contracts"))
            // The copy is of one version: the nested versions folder is not part of it.
            try? FileManager.default.removeItem(at: contracts.appendingPathComponent("versions"))
        }

        func write(_ name: String, _ json: String) throws {
            try Data(json.utf8).write(to: contracts.appendingPathComponent(name))
        }

        func cleanUp() {
            try? FileManager.default.removeItem(at: root)
        }
    }

    static let usersContract = #"""
    {
      "id": "registerUser",
      "summary": "Register a user.",
      "method": "POST",
      "path": "/api/v1/users",
      "request": {
        "contentType": "application/json",
        "body": {
          "type": "object",
          "properties": {"email": {"type": "string", "minLength": 3}, "password": {"type": "string", "minLength": 8}},
          "required": ["email", "password"],
          "additionalProperties": false
        }
      },
      "responses": [
        {
          "status": 201,
          "when": "Registered.",
          "contentType": "application/json",
          "headers": {"request-id": {"required": true, "schema": {"$ref": "schemas/RequestId.json"}}},
          "body": {"type": "object", "properties": {"userId": {"type": "string"}}, "required": ["userId"]},
          "examples": [
            {"name": "registered", "body": {"userId": "u-1"}, "headers": {"request-id": "Aa1Bb2Cc3D"}},
            {"name": "the second user", "request": {"body": {"email": "two@example.com", "password": "password2"}}, "body": {"userId": "u-2"}}
          ]
        },
        {
          "status": 400,
          "code": "INVALID_FORMAT",
          "when": "The body breaks the schema.",
          "contentType": "application/json",
          "body": {"$ref": "schemas/ErrorEnvelope.json"},
          "examples": [
            {"name": "short password", "request": {"body": {"email": "a@b.c", "password": "short"}},
             "body": {"error": {"requestId": "a1B2c3D4e5", "code": "INVALID_FORMAT", "message": "password must be 8-128 characters long", "field": "password"}}}
          ]
        }
      ]
    }
    """#

    static func backend(_ folder: URL) throws -> ModelBackend {
        try ModelBackend(configuration: .init(contracts: try ContractSet.load(from: folder), seed: 9, adminToken: "admin-secret",
                                                checkResponses: true, now: { S.now }))
    }

    static func post(_ path: String, _ body: String) -> MockRequest {
        MockRequest(method: .POST, uri: path, headers: S.jsonHeaders(), body: ByteBuffer(string: body))
    }

    @Test func anAddedContractIsServedFromItsExamplesAndAnInvalidRequestGetsItsDocumented400() async throws {
        let folder = try FolderCopy()
        defer { folder.cleanUp() }
        try folder.write("register-user.json", Self.usersContract)
        let backend = try Self.backend(folder.contracts)

        let created = await backend.respond(to: Self.post("/api/v1/users", #"{"email":"one@example.com","password":"password1"}"#))
        #expect(created.status == .created)
        #expect(created.json == ["userId": "u-1"])
        #expect(created.assumptions.isEmpty)
        #expect(created.headers.first(name: "request-id")?.count == 10)
        #expect(created.headers.first(name: "X-Powered-By") == "Express")
        #expect(created.contractViolation == nil)

        // The example whose request matches wins over the first success example.
        let second = await backend.respond(to: Self.post("/api/v1/users/", #"{"email":"two@example.com","password":"password2"}"#))
        #expect(second.json == ["userId": "u-2"])

        // An invalid request no example documents: the contract's first 400, with the request id echoed, noted as assumed.
        let refused = await backend.respond(to: Self.post("/api/v1/users", #"{"email":"one@example.com"}"#))
        #expect(refused.status == .badRequest)
        let id = try #require(refused.headers.first(name: "request-id"))
        #expect(refused.json?["error"]?["requestId"]?.stringValue == id)
        #expect(refused.json?["error"]?["code"] == "INVALID_FORMAT")
        #expect(refused.assumptions.count == 1)
        #expect(refused.assumptions.first?.contains("registerUser") == true)
        #expect(refused.contractViolation == nil)

        // The same request as the documented 400 example: that answer, stated, so no assumption.
        let documented = await backend.respond(to: Self.post("/api/v1/users", #"{"email":"a@b.c","password":"short"}"#))
        #expect(documented.status == .badRequest)
        #expect(documented.assumptions.isEmpty)

        // The journal and fault selectors name it like any other contract.
        #expect(try ContractSet.load(from: folder.contracts).routes.contractID(method: "POST", path: "/api/v1/users") == "registerUser")
        // Another method on its path is the not-found answer.
        let get = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/users"))
        #expect(get.status == .notFound)
    }

    @Test func aRemovedContractFileRemovesItsRoute() async throws {
        let folder = try FolderCopy()
        defer { folder.cleanUp() }
        try FileManager.default.removeItem(at: folder.contracts.appendingPathComponent("health.json"))
        let backend = try Self.backend(folder.contracts)
        let answer = await backend.respond(to: MockRequest(method: .GET, uri: "/api/health"))
        #expect(answer.status == .notFound)
        #expect(answer.json?["error"]?["code"] == "NOT_FOUND")
        #expect(answer.json?["error"]?["message"] == "Resource not found")
        // With the file, the same request is the health answer, its timestamp drawn from the clock (x-generate).
        let bundled = try S.backend()
        let health = await bundled.respond(to: MockRequest(method: .GET, uri: "/api/health"))
        #expect(health.status == .ok)
        #expect(health.json == ["status": "ok", "timestamp": "2025-11-20T12:00:00.000Z"])
    }

    @Test func aFolderWithoutServiceFileGetsPlainDefaults() async throws {
        let folder = try FolderCopy()
        defer { folder.cleanUp() }
        try FileManager.default.removeItem(at: folder.contracts.appendingPathComponent("service.json"))
        let backend = try Self.backend(folder.contracts)
        let miss = await backend.respond(to: MockRequest(method: .GET, uri: "/API/health"))
        #expect(miss.status == .notFound)
        #expect(miss.headers.first(name: "X-Powered-By") == nil)
        #expect(miss.headers.first(name: "request-id") == nil)
        #expect(miss.json?["error"]?["message"] == "Not Found")
        #expect(await backend.respond(to: MockRequest(method: .GET, uri: "/api/health")).status == .ok)
    }

    @Test func unservableContractsAreLintErrorsWithFileAndPointer() throws {
        let folder = try FolderCopy()
        defer { folder.cleanUp() }
        // A stateless contract with no success example, an unknown action, and an x-also-at that collides.
        try folder.write("register-user.json", Self.usersContract
            .replacingOccurrences(of: #""status": 201"#, with: #""status": 409, "code": "CONFLICT""#)
            .replacingOccurrences(of: #""body": {"userId": "u-1"}, "headers": {"request-id": "Aa1Bb2Cc3D"}"#,
                                  with: #""body": {"error": {"requestId": "a1B2c3D4e5", "code": "CONFLICT", "message": "taken"}}"#)
            .replacingOccurrences(of: #""body": {"userId": "u-2"}"#, with: #""body": {"error": {"requestId": "a1B2c3D4e5", "code": "CONFLICT", "message": "taken"}}"#)
            .replacingOccurrences(of: #""body": {"type": "object", "properties": {"userId": {"type": "string"}}, "required": ["userId"]}"#,
                                  with: #""body": {"$ref": "schemas/ErrorEnvelope.json"}"#))
        var health = try String(contentsOf: folder.contracts.appendingPathComponent("health.json"), encoding: .utf8)
        health = health.replacingOccurrences(of: #""path": "/api/health","#, with: #""path": "/api/health", "x-state": {"action": "ping"}, "x-also-at": ["/API/v1/announcements"],"#)
        try folder.write("health.json", health)
        let problems = ContractSet.lint(directory: folder.contracts)
        let text = problems.map(\.description)
        #expect(problems.contains { $0.file.hasSuffix("register-user.json") && $0.pointer == "/responses" && $0.message.contains("no success") }, "\(text)")
        #expect(problems.contains { $0.file.hasSuffix("health.json") && $0.pointer == "/x-state/action" && $0.message.contains("ping") }, "\(text)")
        // GET /API/v1/announcements is listAnnouncements' path once case is ignored; the later file in name order is told.
        #expect(problems.contains { $0.file.hasSuffix("list-announcements.json") && $0.pointer == "/path" && $0.message.contains("collides")
            && $0.message.contains("health.json (/x-also-at/0)") }, "\(text)")
    }

    @Test func serviceFileProblemsNameTheFileAndPointer() throws {
        let folder = try FolderCopy()
        defer { folder.cleanUp() }
        try folder.write("service.json", #"{"etag": "strong", "routing": {"caseInsensitive": "yes"}, "notFound": {"status": 404}, "colour": 1}"#)
        let problems = ContractSet.lint(directory: folder.contracts)
        let service = problems.filter { $0.file.hasSuffix("service.json") }
        #expect(Set(service.map(\.pointer)).isSuperset(of: ["/etag", "/routing/caseInsensitive", "/notFound", "/colour"]), "\(problems)")
    }

    @Test func theNewerFolderSendsHelmetsHeadersAndMountsOnlyTheAdminDelete() async throws {
        let versions = ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")
        let contracts = try ContractSet.load(from: versions)
        let options = ContractMock.Options(contracts: contracts, seed: 4, adminToken: "admin-secret", quiet: true, checkResponses: true,
                                           idleTimeout: patientIdleTimeout)
        let mock = try await ContractMock.start(options)
        do {
            let http = PetSpotHTTP(mock)
            let health = try await http.get("/api/health")
            #expect(health.status == 200)
            #expect(health.header("X-Powered-By") == nil)
            #expect(health.header("X-Frame-Options") == "SAMEORIGIN")
            #expect(health.header("Strict-Transport-Security") == "max-age=31536000; includeSubDomains")
            #expect(health.header("Cross-Origin-Opener-Policy") == "same-origin")
            #expect(health.header("request-id")?.count == 10)

            let preflight = try await http.send("OPTIONS", "/api/v1/announcements")
            #expect(preflight.status == 204)
            #expect(preflight.header("X-Powered-By") == "Express")
            #expect(preflight.header("X-Frame-Options") == nil)
            #expect(preflight.header("request-id") == nil)

            let adminList = try await http.get("/api/admin/v1/announcements")
            #expect(adminList.status == 404)
            #expect(adminList.errorCode == "NOT_FOUND")
            #expect(adminList.errorMessage == "Resource not found")
            #expect(adminList.header("X-Content-Type-Options") == "nosniff")

            let created = try await http.postJSON("/api/v1/announcements", S.createBody())
            #expect(created.status == 201)
            let id = try #require(created.json?["id"]?.stringValue)
            #expect(try await http.get("/api/admin/v1/announcements/\(id)").status == 404)
            let deleted = try await http.send("DELETE", "/api/admin/v1/announcements/\(id)", headers: ["Authorization": "admin-secret"])
            #expect(deleted.status == 204)
            #expect(deleted.header("X-XSS-Protection") == "0")
            #expect(try await http.get("/api/v1/announcements/\(id)").status == 404)
            try await mock.shutdown()
        } catch {
            try? await mock.shutdown()
            throw error
        }
    }

    @Test func theOlderFolderMountsTheWholeRouterTwice() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            let list = try await http.get("/api/admin/v1/announcements")
            #expect(list.status == 200)
            #expect(list.header("X-Powered-By") == "Express")
            #expect(list.header("X-Frame-Options") == nil)
            #expect(list.header(ModelBackend.contractViolationHeader) == nil)
            let entries = mock.journal.entries()
            #expect(entries.last?.contract == "listAnnouncements")
        }
    }
}
