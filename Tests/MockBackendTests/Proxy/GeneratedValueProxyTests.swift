import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// A backend that differs in one thing the contracts state but no schema holds, behind the validating proxy.
private struct OneChangeBackend: MockResponder {
    let base: ModelBackend
    let change: @Sendable (MockResponse) -> MockResponse

    func respond(to request: MockRequest) async -> MockResponse { change(await base.respond(to: request)) }
}

/// The proxy checks generated values and the service file's headers with the same checkers as `verify` and the mock.
@Suite struct GeneratedValueProxyTests {
    private func violations(after change: @escaping @Sendable (MockResponse) -> MockResponse) async throws -> [ExchangeViolation] {
        try await ProxyModelComparisonTests.withProxy(responder: { OneChangeBackend(base: $0, change: change) }) { setup in
            let answer = try await setup.http.postJSON("/api/v1/announcements", BundledContractsTestSupport.createBody())
            #expect(answer.status == 201)
            return try setup.lastViolations()
        }
    }

    @Test func theFaithfulBackendIsClean() async throws {
        #expect(try await violations { $0 }.isEmpty)
    }

    @Test func anIDThatIsNotVersion4IsTheServersViolation() async throws {
        let found = try await violations { response in
            DriftResponder.rewriteJSON(response) { body in
                guard var object = body.objectValue, var id = object["id"]?.stringValue else { return body }
                let nibble = id.index(id.startIndex, offsetBy: 14)
                id.replaceSubrange(nibble...nibble, with: "1")
                object["id"] = .string(id)
                return .object(object)
            }
        }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.pointer == "/id" && found.first?.side == .server)
        #expect(found.first?.expected.contains("version 4 UUID") == true)
    }

    @Test func aChangedAccessControlAllowOriginIsTheServersViolation() async throws {
        let found = try await violations { response in
            var response = response
            response.headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: "https://petspot.example")
            return response
        }
        #expect(found.map(\.pointer) == ["header:Access-Control-Allow-Origin"], "\(found)")
        #expect(found.first?.got == "\"https://petspot.example\"")
    }

    /// The mock's check of its own answers asks the same checkers, on its own clock (it sends no Date header).
    @Test func theMocksOwnCheckUsesTheSameCheckersOnItsClock() async throws {
        let contracts = try BundledContractsTestSupport.loadedContracts()
        let backend = try ModelBackend(configuration: .init(contracts: contracts, seed: 3, checkResponses: false, now: { BundledContractsTestSupport.now }))
        let request = BundledContractsTestSupport.createRequest(BundledContractsTestSupport.createBody())
        let answer = await backend.respond(to: request)
        #expect(answer.status == .created)
        #expect(ResponseContractCheck(contracts: contracts, multipart: MultipartKitScanner(), now: { BundledContractsTestSupport.now }).problems(contractID: "createAnnouncement", response: answer.modelAnswer, request: request.modelRequest).isEmpty)
        // The same answer judged a day later: its createdAt is no longer "now".
        let later = ResponseContractCheck(contracts: contracts, multipart: MultipartKitScanner(), now: { BundledContractsTestSupport.now.addingTimeInterval(86_400) })
        let problems = later.problems(contractID: "createAnnouncement", response: answer.modelAnswer, request: request.modelRequest)
        #expect(problems.contains { $0.contains("/createdAt") && $0.contains("1 d 0 h earlier") }, "\(problems)")
    }
}
