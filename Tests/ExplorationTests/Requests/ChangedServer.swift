import ContractKit
import Foundation
import Logging
@testable import ContractModel
@testable import MockBackend
import NIOCore
import NIOHTTP1

/// A server written inside a test: the faithful mock with one change a backend team could ship, on 127.0.0.1.
struct ChangedServer {
    /// Answers first when it returns an answer (a tightened rule, a removed route); nil lets the mock answer.
    typealias Intercept = @Sendable (MockRequest) -> MockResponse?
    /// Bends the mock's answer (a changed message, an added header, a stored value returned differently).
    typealias Bend = @Sendable (MockRequest, MockResponse) -> MockResponse
    /// Changes the request before anything sees it (credentials read another way).
    typealias Rewrite = @Sendable (MockRequest) -> MockRequest

    let server: MockServer
    let baseURL: URL

    /// Starts the mock of the bundled contracts behind `intercept` and `bend`.
    static func start(intercept: @escaping Intercept = { _ in nil }, bend: @escaping Bend = { $1 }, rewrite: @escaping Rewrite = { $0 },
                      sendsAssumptions: Bool = false) async throws -> ChangedServer {
        let contracts = try bundledContracts.get()
        var logger = Logger(label: "test.changed-server")
        logger.logLevel = .critical
        let backend = try ModelBackend(configuration: .init(contracts: contracts, adminToken: "tajnehasloadmina", checkResponses: false),
                                       logger: logger)
        var configuration = ServerConfiguration(logger: logger, quiet: true)
        configuration.sendsAssumptions = sendsAssumptions
        let server = MockServer(configuration: configuration,
                                responder: Responder(base: backend, intercept: intercept, bend: bend, rewrite: rewrite),
                                faults: FaultLayer(), journal: Journal(), admin: nil, contractID: { _, _ in nil })
        let address = try await server.start()
        return ChangedServer(server: server, baseURL: address.baseURL)
    }

    func shutdown() async throws { try await server.shutdown() }

    /// Loaded once per test process. The changed server's model does not check its own answers against the contracts
    /// (the faithful mock's self-check is `theMockItselfDiffersInNothingAndIsCleanedUp`'s to test): it reparsed and
    /// validated every answer, a fifth of each exploration's time, and a changed answer is bent after it anyway.
    private static let bundledContracts = Result { () throws(ContractLoadError) in
        try ContractSet.load(from: ContractSet.bundledDirectory)
    }

    private struct Responder: MockResponder {
        let base: ModelBackend
        let intercept: Intercept
        let bend: Bend
        let rewrite: Rewrite

        func respond(to request: MockRequest) async -> MockResponse {
            let request = rewrite(request)
            if let answer = intercept(request) { return answer }
            return bend(request, await base.respond(to: request))
        }

        func bodyLimit(for head: MockRequest) -> Int { base.bodyLimit(for: head) }
        func respondToOversizedBody(_ head: MockRequest) async -> MockResponse { await base.respondToOversizedBody(head) }
    }

    /// The request's JSON body, if it has one.
    static func json(_ request: MockRequest) -> JSONValue? {
        try? JSONValue(parsing: Data(request.body.readableBytesView))
    }

    /// Whether the request creates an announcement on the public mount.
    static func isCreate(_ request: MockRequest) -> Bool {
        request.method == .POST && request.path.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "/")) == "api/v1/announcements"
    }

    /// A 400 error envelope like the real server's.
    static func error(_ code: String, field: String?, message: String, status: HTTPResponseStatus = .badRequest) -> MockResponse {
        var error: JSONObject = ["code": .string(code), "message": .string(message), "requestId": "abcdefghij"]
        if let field { error["field"] = .string(field) }
        let body = JSONValue.object(["error": .object(error)]).data()
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "request-id", value: "abcdefghij")
        return MockResponse(status: status, headers: headers, body: ByteBuffer(bytes: body))
    }

    /// The answer with its JSON body rewritten, as the mock's own drifts rewrite theirs.
    static func rewrite(_ response: MockResponse, _ transform: (JSONValue) -> JSONValue) -> MockResponse {
        DriftResponder.rewriteJSON(response, transform)
    }
}
