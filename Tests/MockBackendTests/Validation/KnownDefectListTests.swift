import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// A listed defect excuses the answer it records to the request it names, and nothing else.
@Suite struct KnownDefectListTests {
    private let internalError = Array(#"{"error":{"requestId":"unknown","code":"INTERNAL_SERVER_ERROR","message":"Internal server error"}}"#.utf8)
    private let json = [HeaderField(name: "Content-Type", value: "application/json")]
    private let answerHeaders = [HeaderField(name: "Content-Type", value: "application/json; charset=utf-8")]

    private func validator() throws -> ExchangeValidator {
        let contracts = try BundledContractsTestSupport.loadedContracts()
        return ExchangeValidator(contracts: contracts, knownDefects: KnownDefectList(contracts.knownDefects, multipart: MultipartKitScanner()))
    }

    @Test func aServer500ToMalformedJSONIsTheListedDefect() throws {
        let exchange = Exchange(method: "POST", path: "/api/v1/announcements", requestHeaders: json, requestBody: Array(#"{"species": "#.utf8),
                                status: 500, responseHeaders: answerHeaders, responseBody: internalError)
        let server = try validator().validate(exchange).filter { $0.side == .server }
        #expect(!server.isEmpty)
        #expect(server.allSatisfy { $0.knownDefect == "json-parser-malformed-500" })
    }

    @Test func aBroken500ToAValidBodyIsStillAViolation() throws {
        let body = Array(BundledContractsTestSupport.createBody().data())
        let exchange = Exchange(method: "POST", path: "/api/v1/announcements", requestHeaders: json, requestBody: body,
                                status: 500, responseHeaders: answerHeaders, responseBody: Array(#"{"message":"boom"}"#.utf8))
        let violations = try validator().validate(exchange)
        #expect(violations.contains { $0.side == .server })
        #expect(violations.allSatisfy { $0.knownDefect == nil })
    }

    @Test func malformedJSONAnsweredOtherwiseThanListedIsNotExcused() throws {
        let exchange = Exchange(method: "POST", path: "/api/v1/announcements", requestHeaders: json, requestBody: Array(#"{"species": "#.utf8),
                                status: 502, responseHeaders: answerHeaders, responseBody: Array(#"{"message":"bad gateway"}"#.utf8))
        let server = try validator().validate(exchange).filter { $0.side == .server }
        #expect(!server.isEmpty)
        #expect(server.allSatisfy { $0.knownDefect == nil })
    }

    @Test func anExpiredEntryExcusesNothing() throws {
        let contracts = try BundledContractsTestSupport.loadedContracts()
        let expired = contracts.knownDefects.map {
            KnownDefect(id: $0.id, scope: $0.scope, reason: $0.reason, trigger: $0.trigger, actual: $0.actual, expires: "2000-01-01")
        }
        let list = KnownDefectList(expired, multipart: MultipartKitScanner(), today: "2026-01-01")
        let violation = ExchangeViolation(contract: "createAnnouncement", pointer: "status", expected: "400", got: "500", side: .server)
        let exchange = Exchange(method: "POST", path: "/api/v1/announcements", requestHeaders: json, requestBody: Array("{".utf8),
                                status: 500, responseBody: internalError)
        #expect(list.knownDefect(for: violation, in: exchange) == nil)
        #expect(KnownDefectList(contracts.knownDefects, multipart: MultipartKitScanner(), today: "2026-01-01").knownDefect(for: violation, in: exchange) == "json-parser-malformed-500")
    }
}
