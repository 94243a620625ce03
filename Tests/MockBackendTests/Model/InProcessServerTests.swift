import ContractKit
import ContractModel
import Foundation
import Testing

@testable import MockBackend

/// The in-process face answers byte for byte as `serve` does over a socket: the same seeded model behind both, the
/// same requests, the same statuses, headers (framing included) and bodies.
@Suite struct InProcessServerTests {
    static let seed: UInt64 = 11

    /// One exchange sent to both faces, in order.
    struct Exchange: Sendable {
        let method: String
        let path: String
        var headers: [String: String] = [:]
        var body = Data()
    }

    static func bothAnswers(_ exchanges: [Exchange]) async throws -> [(wire: ExactHTTPClient.Answer, inProcess: ExactHTTPClient.Answer)] {
        let contracts = try BundledContractsTestSupport.loadedContracts()
        // One clock for both: the timestamps a create makes are part of the bytes compared.
        var options = ContractMock.Options(contracts: contracts, seed: seed, adminToken: "admin-secret", quiet: true, checkResponses: false,
                                           now: { BundledContractsTestSupport.now })
        options.sendsAssumptions = true
        let mock = try await ContractMock.start(options)
        var configuration = ModelBackend.Configuration(contracts: contracts, seed: seed, adminToken: "admin-secret", checkResponses: false,
                                                       now: { BundledContractsTestSupport.now })
        configuration.storeMaxBytes = ContractMock.Options.defaultStoreMaxBytes
        let face = InProcessServer(backend: try ModelBackend(configuration: configuration), sendsAssumptions: true)
        let client = ExactHTTPClient(timeout: .seconds(120))
        var answers: [(ExactHTTPClient.Answer, ExactHTTPClient.Answer)] = []
        do {
            for exchange in exchanges {
                let url = try #require(URL(string: exchange.path, relativeTo: mock.baseURL)?.absoluteURL)
                let wire = try await client.send(method: exchange.method, url: url, headers: exchange.headers, body: exchange.body)
                let local = await face.send(method: exchange.method, url: url, headers: exchange.headers, body: exchange.body)
                answers.append((wire, local))
            }
        } catch {
            try await mock.shutdown()
            throw error
        }
        try await mock.shutdown()
        return answers
    }

    static func expectSame(_ pair: (wire: ExactHTTPClient.Answer, inProcess: ExactHTTPClient.Answer), _ what: String) {
        #expect(pair.wire.status == pair.inProcess.status, "\(what): status")
        // Both faces lowercase nothing and add the same framing; the order is the server's.
        #expect(pair.wire.headers.map { "\($0.name.lowercased()): \($0.value)" } == pair.inProcess.headers.map { "\($0.name.lowercased()): \($0.value)" },
                "\(what): headers")
        #expect(pair.wire.body == pair.inProcess.body, "\(what): body")
    }

    @Test func createReadHeadAndMissAnswerAlikeOnBothFaces() async throws {
        let body = Data(BundledContractsTestSupport.createBody().serialized().utf8)
        let created = try await Self.bothAnswers([Exchange(method: "POST", path: "/api/v1/announcements", headers: ["Content-Type": "application/json"], body: body)])
        Self.expectSame(created[0], "create")
        #expect(created[0].inProcess.status == 201)
        let id = try #require(try JSONValue(parsing: created[0].inProcess.body)["id"]?.stringValue)
        let answers = try await Self.bothAnswers([
            Exchange(method: "POST", path: "/api/v1/announcements", headers: ["Content-Type": "application/json"], body: body),
            Exchange(method: "GET", path: "/api/v1/announcements/\(id)"),
            Exchange(method: "HEAD", path: "/api/v1/announcements/\(id)"),
            Exchange(method: "GET", path: "/api/v1/announcements/00000000-0000-4000-8000-000000000000"),
            Exchange(method: "GET", path: "/api/v1/announcements?lat=52.2&lng=21.0&range=5"),
            Exchange(method: "OPTIONS", path: "/api/v1/announcements", headers: ["Origin": "https://pets.example.org", "Access-Control-Request-Method": "POST"]),
        ])
        for (pair, what) in zip(answers, ["create", "read", "head", "miss", "list", "preflight"]) { Self.expectSame(pair, what) }
        #expect(answers[2].inProcess.body.isEmpty)
        #expect(answers[3].inProcess.status == 404)
    }

    @Test func aBodyOverTheParsersLimitIsRefusedAndTheConnectionEndsOnBothFaces() async throws {
        let big = Data(#"{"petName":""#.utf8) + Data(repeating: UInt8(ascii: "a"), count: 200 * 1024) + Data(#""}"#.utf8)
        let answers = try await Self.bothAnswers([Exchange(method: "POST", path: "/api/v1/announcements", headers: ["Content-Type": "application/json"], body: big)])
        Self.expectSame(answers[0], "oversized")
        #expect(answers[0].inProcess.status == 413)
        #expect(answers[0].inProcess.headers.contains { $0.name.lowercased() == "connection" && $0.value == "close" })
    }
}
