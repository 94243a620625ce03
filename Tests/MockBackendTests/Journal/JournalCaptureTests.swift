import ContractKit
import Foundation
import NIOCore
import Testing
@testable import ContractModel
@testable import MockBackend

/// The journal keeps what crossed the wire: query, headers, bodies and the error envelope's code and field.
@Suite struct JournalCaptureTests {
    @Test func aRefusedCreateKeepsItsBodyQueryAndErrorCode() async throws {
        try await withPetSpotMock { mock in
            let body = #"{"species": "DOG", "sex": "M", "locationLatitude": 95}"#
            let answer = try await PetSpotHTTP(mock).send("POST", "/api/v1/announcements?source=test",
                                                          headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(answer.status == 400)
            let entry = try #require(mock.journal.entries().last)
            #expect(entry.query == "source=test")
            #expect(entry.target == "/api/v1/announcements?source=test")
            #expect(entry.requestBody?.text == body)
            #expect(entry.requestBody?.size == body.utf8.count)
            #expect(entry.requestHeaders.contains { $0.name.lowercased() == "content-type" && $0.value == "application/json" })
            #expect(entry.errorCode == answer.errorCode)
            #expect(entry.errorField == "locationLatitude")
            #expect(entry.responseBody?.bytes == Array(answer.body))
            #expect(entry.responseHeaders.contains { $0.name.lowercased() == "request-id" })
        }
    }

    @Test func aSuccessfulAnswerHasNoErrorSummary() async throws {
        try await withPetSpotMock { mock in
            _ = try await PetSpotHTTP(mock).create()
            let entry = try #require(mock.journal.entries().last)
            #expect(entry.status == 201)
            #expect(entry.errorCode == nil && entry.errorField == nil)
            #expect(entry.responseBody?.text?.contains("managementPassword") == true)
        }
    }

    @Test func longBodiesAreCutAtTheLimitButKeepTheirSize() throws {
        var buffer = ByteBuffer()
        buffer.writeBytes(Array(repeating: UInt8(ascii: "a"), count: 100))
        let captured: CapturedBody = try #require(CapturedBody(buffer, limit: 10))
        #expect(captured.size == 100)
        #expect(captured.bytes.count == 10)
        #expect(captured.truncated)
        #expect(CapturedBody(buffer, limit: 0) == nil)
        #expect(CapturedBody(ByteBuffer(), limit: 10) == nil)
    }

    @Test func binaryBodiesRoundTripThroughBase64() throws {
        let captured = CapturedBody(size: 4, bytes: [0xFF, 0xD8, 0xFF, 0x00])
        let data = try JSONEncoder().encode(captured)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("base64"))
        #expect(try JSONDecoder().decode(CapturedBody.self, from: data) == captured)
    }

    @Test func entriesWrittenBeforeTheCaptureKeysStillDecode() throws {
        let old = #"{"sequence":1,"time":"2025-11-19T10:00:00.000Z","method":"GET","path":"/x","contract":null,"status":200,"authUser":null,"rule":null,"fault":null,"durationMs":3}"#
        let entry = try JSONDecoder().decode(JournalEntry.self, from: Data(old.utf8))
        #expect(entry.requestHeaders.isEmpty && entry.requestBody == nil && entry.violations.isEmpty)
    }

    @Test func errorEnvelopeSummaryReadsCodeAndField() {
        let summary = ErrorEnvelopeSummary(body: Array(#"{"error":{"requestId":"x","code":"MISSING_FILE","message":"m","field":"photo"}}"#.utf8))
        #expect(summary?.code == "MISSING_FILE" && summary?.field == "photo")
        #expect(ErrorEnvelopeSummary(body: Array("not json".utf8)) == nil)
        #expect(ErrorEnvelopeSummary(body: Array(#"{"data":[]}"#.utf8)) == nil)
    }
}
