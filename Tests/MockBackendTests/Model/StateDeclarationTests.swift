import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// The stateful endpoints answer what their contracts declare (`x-state`, `request.auth.x-errors`), not what Swift says.
@Suite struct StateDeclarationTests {
    typealias S = BundledContractsTestSupport

    /// A backend over a copy of the bundled contracts after `edit` changed one file.
    private func backend(editing file: String, _ edit: (inout JSONValue) -> Void) throws -> (ModelBackend, URL) {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("state-contracts-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ContractSet.bundledDirectory, to: copy)
        let url = copy.appendingPathComponent(file)
        guard case .object(var object) = try JSONValue(parsing: Data(contentsOf: url)) else { throw CocoaError(.fileReadCorruptFile) }
        var value = JSONValue.object(object)
        edit(&value)
        object = value.objectValue ?? object
        try JSONValue.object(object).data(pretty: true).write(to: url)
        let contracts = try ContractSet.load(from: copy)
        let backend = try ModelBackend(configuration: .init(contracts: contracts, seed: 5, adminToken: "s3cret", checkResponses: true, now: { S.now }))
        return (backend, copy)
    }

    @Test func anEditedAuthMessageIsAnswered() async throws {
        let (backend, copy) = try backend(editing: "upload-photo.json") { value in
            guard case .object(var root) = value, case .object(var request)? = root["request"], case .object(var auth)? = request["auth"],
                case .object(var errors)? = auth["x-errors"], case .object(var missing)? = errors["missing"] else { return }
            missing["message"] = "Sign in with the management password first"
            errors["missing"] = .object(missing)
            auth["x-errors"] = .object(errors)
            request["auth"] = .object(auth)
            root["request"] = .object(request)
            value = .object(root)
        }
        defer { try? FileManager.default.removeItem(at: copy) }
        let response = await backend.respond(to: S.uploadRequest(id: "any", authorization: nil, body: S.multipart(bytes: S.png)))
        #expect(response.status == .unauthorized)
        #expect(response.errorMessage == "Sign in with the management password first")
        #expect(response.errorCode == "UNAUTHENTICATED")
    }

    @Test func anEditedNotFoundMessageFillsThePathParameter() async throws {
        let (backend, copy) = try backend(editing: "upload-photo.json") { value in
            guard case .object(var root) = value, case .object(var state)? = root["x-state"] else { return }
            state["notFound"] = ["status": 404, "code": "NOT_FOUND", "message": "No announcement {id} here"]
            root["x-state"] = .object(state)
            value = .object(root)
        }
        defer { try? FileManager.default.removeItem(at: copy) }
        let response = await backend.respond(to: S.uploadRequest(id: "nope", authorization: S.basic("nope", "123456"), body: S.multipart(bytes: S.png)))
        #expect(response.status == .notFound)
        #expect(response.errorMessage == "No announcement nope here")
    }

    // MARK: - Users (fb9f56a)

    private static let versions = ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")

    /// The signing key the users backend is deployed with.
    static let tokenKey = "state-declaration-tests-key"

    private func usersBackend() throws -> (ModelBackend, ContractSet) {
        var contracts = try ContractSet.load(from: Self.versions)
        // The key is deployment configuration, not a contract fact: the test deploys the model with its own.
        contracts.deploymentSecrets = DeploymentSecrets(token: Self.tokenKey, tokenSource: "the test")
        return (try ModelBackend(configuration: .init(contracts: contracts, seed: 9, checkResponses: true, now: { S.now })), contracts)
    }

    private func post(_ backend: ModelBackend, _ path: String, email: String, password: String) async -> MockResponse {
        let body: JSONValue = ["email": .string(email), "password": .string(password)]
        return await backend.respond(to: MockRequest(method: .POST, uri: path, headers: S.jsonHeaders(), body: ByteBuffer(string: body.serialized())))
    }

    private static func base64URLDecoded(_ text: Substring) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }

    @Test func registerAnswersAUserIdAndAVerifiableToken() async throws {
        let (backend, contracts) = try usersBackend()
        let response = await post(backend, "/api/v1/users", email: "Owner@Example.com", password: "correct horse")
        #expect(response.status == .created)
        #expect(response.contractViolation == nil)
        let body = try #require(response.json?.objectValue)
        #expect(body.keys == ["userId", "accessToken"])
        let userId = try #require(body["userId"]?.stringValue)
        #expect(userId.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", options: .regularExpression) != nil)
        let token = try #require(body["accessToken"]?.stringValue)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        #expect(contracts.state.declaration(for: "registerUser")?.token?.secret == nil, "no contract writes the key down")
        let secret = Self.tokenKey
        let signature = HMACSHA256.mac(key: Array(secret.utf8), message: Array("\(parts[0]).\(parts[1])".utf8))
        #expect(Self.base64URLDecoded(parts[2]) == signature)
        let headerBytes = try #require(Self.base64URLDecoded(parts[0]))
        #expect(try JSONValue(parsing: Data(headerBytes)) == ["alg": "HS256", "typ": "JWT"])
        let claimBytes = try #require(Self.base64URLDecoded(parts[1]))
        let claims = try #require(try JSONValue(parsing: Data(claimBytes)).objectValue)
        #expect(claims.keys == ["userId", "iat", "exp"])
        #expect(claims["userId"]?.stringValue == userId)
        let iat = try #require(claims["iat"]?.intValue)
        #expect(iat == Int(S.now.timeIntervalSince1970))
        #expect(claims["exp"]?.intValue == iat + 3600)
    }

    @Test func theSameEmailInAnotherCaseIsAConflictWithoutAField() async throws {
        let (backend, _) = try usersBackend()
        #expect(await post(backend, "/api/v1/users", email: "owner@example.com", password: "correct horse").status == .created)
        let again = await post(backend, "/api/v1/users", email: "OWNER@example.COM", password: "another one")
        #expect(again.status == .conflict)
        #expect(again.errorCode == "CONFLICT")
        #expect(again.errorMessage == "Email already exists")
        #expect(again.json?["error"]?["field"] == nil)
    }

    @Test func loginAnswersTheSameUserAndRefusesWrongPasswordsAndUnknownEmails() async throws {
        let (backend, _) = try usersBackend()
        let registered = await post(backend, "/api/v1/users", email: "owner@example.com", password: "correct horse")
        let userId = try #require(registered.json?["userId"]?.stringValue)
        let login = await post(backend, "/api/v1/users/login", email: "Owner@example.com", password: "correct horse")
        #expect(login.status == .ok)
        #expect(login.contractViolation == nil)
        #expect(login.json?["userId"]?.stringValue == userId)
        #expect(login.json?["accessToken"]?.stringValue?.split(separator: ".").count == 3)
        for (email, password) in [("owner@example.com", "wrong horse"), ("stranger@example.com", "correct horse")] {
            let refused = await post(backend, "/api/v1/users/login", email: email, password: password)
            #expect(refused.status == .unauthorized)
            #expect(refused.errorCode == "INVALID_CREDENTIALS")
            #expect(refused.errorMessage == "Invalid email or password")
            #expect(refused.json?["error"]?["field"] == nil)
        }
    }

    @Test func userBodiesGetTheirContractsLimitAndItsParser413() async throws {
        let (backend, _) = try usersBackend()
        let head = MockRequest(method: .POST, uri: "/api/v1/users/login", headers: S.jsonHeaders())
        #expect(backend.bodyLimit(for: head) == 102_400)
        let tooLarge = await backend.respondToOversizedBody(head)
        #expect(tooLarge.status == .payloadTooLarge)
        #expect(tooLarge.json?["error"]?["requestId"] == "unknown")
        #expect(tooLarge.headers.first(name: "request-id") == nil)
    }

    @Test func theOlderFolderHasNoUsers() async throws {
        let backend = try S.backend()
        #expect(await post(backend, "/api/v1/users", email: "owner@example.com", password: "correct horse").status == .notFound)
    }

    @Test func hmacSHA256MatchesRFC4231() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        // RFC 4231 test cases 1, 2 and 6 (a key longer than the block).
        #expect(hex(HMACSHA256.mac(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(hex(HMACSHA256.mac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(hex(HMACSHA256.mac(key: [UInt8](repeating: 0xaa, count: 131), message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(hex(HMACSHA256.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
