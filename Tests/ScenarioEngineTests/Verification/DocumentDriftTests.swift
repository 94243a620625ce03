import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing
@testable import ScenarioEngine

/// A team's stateless OpenAPI document verified against a server that behaves like the real one: what the document
/// leaves unstated (a request for an error example, an error code, an id it cannot create, an account) must not come
/// back as a failure, while what it does state still does.
@Suite struct DocumentDriftTests {
    /// The documents are written to a fresh folder (removed by the caller), each `name: text`.
    static func documents(_ files: [(String, String)]) throws -> (folder: URL, urls: [URL]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("document-drift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var urls: [URL] = []
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            urls.append(url)
        }
        return (folder, urls)
    }

    /// The bundled fixtures (three announcements), for documents whose reads need a record the server already holds.
    static let petsFixtures = ContractSet.bundledDirectory.appendingPathComponent("fixtures/pets.json")

    /// Verifies the documents (one contract set) against a mock of `served` (the bundled contracts, or a version of
    /// them), holding `fixtures` when given; `configure` sets the verifier's options. The mock is shut down whatever
    /// happens.
    static func verify(_ files: [(String, String)], served: URL = ContractSet.bundledDirectory, fixtures: URL? = nil,
                       configure: (inout ProviderVerifier) -> Void = { _ in }) async throws -> (ProviderVerifier.Outcome, [VerificationCheck]) {
        let (folder, urls) = try documents(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let contracts = try ContractSet.load(documents: urls)
        var options = ContractMock.Options(contracts: try ContractSet.load(from: served), quiet: true)
        if let fixtures {
            options.fixtures = fixtures
            // The fixtures hold statuses outside the create schema on purpose; the mock's self-check would only log them.
            options.checkResponses = false
        }
        let server = try await ContractMock.start(options)
        var verifier = ProviderVerifier(contracts: contracts, target: server.baseURL, timeout: 120)
        configure(&verifier)
        let plan = VerificationPlanner.plan(for: contracts)
        let outcome = await verifier.verify(plan)
        try await server.shutdown()
        return (outcome, plan)
    }

    static func result(_ outcome: ProviderVerifier.Outcome, _ name: String) throws -> ScenarioResult {
        try #require(outcome.report.results.first { $0.name == name }, "no result \(name) in \(outcome.report.results.map(\.name))")
    }

    static let newer = ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")

    /// A list whose 400 examples name no request and whose error is a bare string without a code.
    static let listing = """
        openapi: 3.0.3
        info: {title: Listing, version: "1"}
        paths:
          /api/v1/announcements:
            get:
              operationId: browse
              parameters:
                - {name: lat, in: query, schema: {type: number, minimum: -90, maximum: 90}}
              responses:
                "200":
                  description: the list
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [data]
                        properties:
                          data: {type: array, items: {type: object}}
                      examples:
                        everything: {value: {data: []}}
                "400":
                  description: a bad latitude
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          error: {type: object}
                      examples:
                        latitudeTooBig: {value: {error: {message: "lat must be at most 90"}}}
        """

    @Test func anErrorExampleWithoutARequestIsNotSentAsTheSuccessRequest() async throws {
        let (outcome, plan) = try await Self.verify([("listing.yaml", Self.listing)])
        let error = try Self.result(outcome, "browse › latitudeTooBig")
        #expect(error.status == .skipped)
        #expect(error.skipReason?.contains("names no request") == true)
        #expect(try Self.result(outcome, "browse › everything").status == .passed)
        #expect(plan.count == 2)
        // The translation's made-up code is not named as if the document stated it.
        #expect(!VerificationPlanner.describe(plan).contains("HTTP_400"))
        #expect(VerificationPlanner.describe(plan).contains("→ 400"))
    }

    /// A details read with no create beside it, and a not-found answer whose error states no code.
    static let details = """
        openapi: 3.0.3
        info: {title: Details, version: "1"}
        paths:
          /api/v1/announcements/{id}:
            get:
              operationId: readOne
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
              responses:
                "200":
                  description: found
                  content:
                    application/json:
                      schema: {type: object, required: [id], properties: {id: {type: string}}}
                      examples:
                        one: {value: {id: "a"}}
                        two: {value: {id: "b"}}
                "404":
                  description: none with this id
                  content:
                    application/json:
                      schema: {type: object, required: [error], properties: {error: {type: object}}}
                      examples:
                        missing: {value: {error: {message: "Resource not found"}}}
        """

    @Test func anIdNoOperationCreatesIsOneNoteAndAMadeUpCodeIsNotCompared() async throws {
        let (outcome, _) = try await Self.verify([("details.yaml", Self.details)])
        let note = try Self.result(outcome, "readOne › not reachable")
        #expect(note.status == .note)
        #expect(note.notes.first?.hasSuffix("not sent: one, two") == true)
        #expect(outcome.report.results.filter { $0.status == .note }.count == 1)
        #expect(try Self.result(outcome, "readOne › one").status == .skipped)
        // The server answers NOT_FOUND; the document states no code, so HTTP_404 is not held against it.
        let missing = try Self.result(outcome, "readOne › missing")
        #expect(missing.status == .passed, "\(missing.failure?.message ?? "")")
        #expect(outcome.report.failed == 0)
    }

    static let register = """
        openapi: 3.0.3
        info: {title: Accounts, version: "1"}
        servers: [{url: /api/v1}]
        paths:
          /users:
            post:
              operationId: signUp
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [email, password]
                      properties:
                        email: {type: string, format: email}
                        password: {type: string, minLength: 8}
                    examples:
                      fresh: {value: {email: "someone@example.org", password: "LongEnough1"}}
              responses:
                "201":
                  description: registered
                  content:
                    application/json:
                      schema: {type: object, required: [userId], properties: {userId: {type: string}}}
                      examples:
                        fresh: {value: {userId: "8d4b5a52-3f7e-4c3a-9b0e-0f6f7f0a1b2c"}}
                "409":
                  description: the email is taken
                  content:
                    application/json:
                      schema: {type: object, properties: {error: {type: object}}}
                      examples:
                        taken: {value: {error: {message: "Email already exists"}}}
        """

    static let login = """
        {"openapi": "3.1.0", "info": {"title": "Sign in", "version": "1"}, "servers": [{"url": "/api/v1"}],
         "paths": {"/users/login": {"post": {"operationId": "signIn",
           "requestBody": {"required": true, "content": {"application/json": {
             "schema": {"type": "object", "required": ["email", "password"],
                        "properties": {"email": {"type": "string"}, "password": {"type": "string"}}},
             "examples": {"known": {"value": {"email": "someone@example.org", "password": "LongEnough1"}}}}}},
           "responses": {
             "200": {"description": "signed in", "content": {"application/json": {
               "schema": {"type": "object", "required": ["accessToken"], "properties": {"accessToken": {"type": "string"}}},
               "examples": {"known": {"value": {"accessToken": "a.b.c"}}}}}},
             "401": {"description": "wrong email or password", "content": {"application/json": {
               "schema": {"type": "object"}, "examples": {"wrong": {"value": {"error": {"message": "Invalid email or password"}}}}}}}}}}}}
        """

    @Test func aLoginIsSentAfterTheRegisterWithTheSameValues() async throws {
        let (outcome, plan) = try await Self.verify([("register.yaml", Self.register), ("login.json", Self.login)], served: Self.newer)
        let signIn = try #require(plan.first { $0.name == "signIn › known" })
        #expect(signIn.recipe.before.map(\.pathTemplate) == ["/api/v1/users"])
        let result = try Self.result(outcome, "signIn › known")
        #expect(result.status == .passed, "\(result.failure?.message ?? "")")
        // The register's own 201 and its documented conflict (the same create again) both come back as documented.
        let fresh = try Self.result(outcome, "signUp › fresh")
        #expect(fresh.status == .passed, "\(fresh.failure?.message ?? fresh.notes.joined())")
        let taken = try Self.result(outcome, "signUp › taken")
        #expect(taken.status == .passed, "\(taken.failure?.message ?? "")")
    }

    @Test func aLoginWithoutItsRegisterIsANoteNotAFailure() async throws {
        let (outcome, _) = try await Self.verify([("login.json", Self.login)], served: Self.newer)
        let result = try Self.result(outcome, "signIn › known")
        #expect(result.status == .note)
        #expect(result.notes.first?.hasPrefix("not reachable: answered 401") == true)
        #expect(outcome.report.failed == 0)
    }

    @Test func aStatedRuleTheServerBreaksIsStillAFailure() async throws {
        // The document requires `id` in the register answer; the server answers userId and accessToken.
        let stated = Self.register.replacingOccurrences(of: "required: [userId], properties: {userId: {type: string}}",
                                                        with: "required: [id], properties: {id: {type: string}}")
            .replacingOccurrences(of: "{userId: \"8d4b5a52-3f7e-4c3a-9b0e-0f6f7f0a1b2c\"}", with: "{id: \"8d4b5a52-3f7e-4c3a-9b0e-0f6f7f0a1b2c\"}")
        let (outcome, _) = try await Self.verify([("register.yaml", stated)], served: Self.newer)
        let result = try Self.result(outcome, "signUp › fresh")
        #expect(result.status == .failed)
        #expect(result.failure?.mismatches.contains { $0.subject == "body /id" } == true)
    }
}
