import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import MockBackend

/// The model takes escaped lone surrogates where its service file says the real parser does, and stores and echoes them
/// as the reproduction of the real backend does (issue 42): as U+FFFD, written raw, on the create and on every read.
@Suite struct LoneSurrogateBackendTests {
    typealias S = BundledContractsTestSupport
    static let newer = ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")

    func backend(_ folder: URL) throws -> ModelBackend {
        try ModelBackend(configuration: .init(contracts: try ContractSet.load(from: folder), seed: 7, checkResponses: true,
                                              now: { BundledContractsTestSupport.now }))
    }

    /// A create whose petName is `raw`, written into the JSON text as it stands (escapes and all).
    static func create(petName raw: String) -> MockRequest {
        let text = S.createBody().serialized().replacingOccurrences(of: #""petName":"Rex""#, with: #""petName":"\#(raw)""#)
        return MockRequest(method: .POST, uri: "/api/v1/announcements", headers: S.jsonHeaders(), body: ByteBuffer(string: text))
    }

    static func text(_ response: MockResponse) -> String { String(decoding: response.body.readableBytesView, as: UTF8.self) }

    /// What the reproduction answers for each escape `verify` sends, byte for byte in the petName member.
    @Test(arguments: [(#"a\ud800b"#, "\"petName\":\"a\u{FFFD}b\""), (#"\udc00"#, "\"petName\":\"\u{FFFD}\""),
                      (#"\ud83d\udc36 pair"#, "\"petName\":\"\u{1F436} pair\""), (#"\u0000nul"#, #""petName":"\u0000nul""#)])
    func eachEscapeIsStoredAndEchoedAsTheRealBackendDoes(raw: String, member: String) async throws {
        let backend = try backend(ContractSet.bundledDirectory)
        let created = await backend.respond(to: Self.create(petName: raw))
        #expect(created.status == .created, "\(Self.text(created))")
        #expect(Self.text(created).contains(member), "\(Self.text(created))")
        #expect(created.contractViolation == nil)
        let id = try #require(created.json?["id"]?.stringValue)
        let read = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/\(id)", headers: HTTPHeaders(), body: ByteBuffer()))
        #expect(Self.text(read).contains(member), "\(Self.text(read))")
    }

    @Test func aServiceThatRefusesThemAnswersMalformed() async throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        try copy.edit("service.json") { $0.set(["bodyParser", "loneSurrogates"], "refuse") }
        let model = try backend(copy.url)
        let refused = await model.respond(to: Self.create(petName: #"a\ud800b"#))
        #expect(refused.status == .badRequest)
        #expect(refused.errorMessage == "Malformed JSON in request body")
        // A pair is valid JSON under either policy.
        let paired = await model.respond(to: Self.create(petName: #"\ud83d\udc36"#))
        #expect(paired.status == .created)
    }

    @Test func aPasswordWithALoneSurrogateOpensWithAnyOtherOrWithTheReplacement() async throws {
        // V8 hashes the UTF-8 the lone unit is written as (U+FFFD): the reproduction logs in with either.
        let backend = try backend(Self.newer)
        func post(_ path: String, _ password: String) async -> MockResponse {
            let text = #"{"email":"lone@example.com","password":"\#(password)"}"#
            return await backend.respond(to: MockRequest(method: .POST, uri: path, headers: S.jsonHeaders(), body: ByteBuffer(string: text)))
        }
        #expect(await post("/api/v1/users", #"a\ud800bcdefgh"#).status == .created)
        #expect(await post("/api/v1/users/login", "a\u{FFFD}bcdefgh").status == .ok)
        #expect(await post("/api/v1/users/login", #"a\udc00bcdefgh"#).status == .ok)
        #expect(await post("/api/v1/users/login", "abcdefgh").status == .unauthorized)
    }
}
