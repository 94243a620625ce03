import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// The corners of the real backend at 9ae1f4b that generated requests reach (petspot-api.md, "Quirks"): the model
/// must answer them as that server does, or `verify` reports a correct server as changed.
@Suite struct BundledContractsQuirksTests {
    typealias S = BundledContractsTestSupport

    @Test func blankEmailAndPhoneAreStoredAsSentWhileEmptyOptionalTextIsNull() async throws {
        let backend = try S.backend()
        let body = S.createBody([("email", ""), ("phone", "  123 "), ("petName", ""), ("breed", "<b></b>"), ("microchipNumber", nil)])
        let created = try #require(await backend.respond(to: S.createRequest(body)).json)
        #expect(created["email"] == "")
        #expect(created["phone"] == "  123 ")
        #expect(created["petName"] == .null)
        // Text that sanitizes to nothing was non-empty when sent: the backend stores the empty result.
        #expect(created["breed"] == "")
        #expect(created["microchipNumber"] == .null)
        let whitespace = try #require(await backend.respond(to: S.createRequest(S.createBody([("email", "   "), ("microchipNumber", nil)]))).json)
        #expect(whitespace["email"] == "   ")
    }

    @Test func aHugeWholeAgeIsAcceptedAndWrittenAsJavaScriptWritesIt() async throws {
        let backend = try S.backend()
        let response = await backend.respond(to: MockRequest(
            method: .POST, uri: "/api/v1/announcements", headers: S.jsonHeaders(),
            body: ByteBuffer(string: S.createBody([("age", 0)]).serialized().replacingOccurrences(of: #""age":0"#, with: #""age":1e308"#))))
        #expect(response.status == .created)
        let text = String(buffer: response.body)
        #expect(text.contains(#""age":1e+308,"#))
        #expect(response.contractViolation == nil)
    }

    @Test func infiniteRangeIsNotAnInteger() async throws {
        let backend = try S.backend()
        let response = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements?lat=52&lng=21&range=Infinity"))
        #expect(response.status == .badRequest)
        #expect(response.errorMessage == "Parameter 'range' must be an integer")
        #expect(response.errorField == "range")
    }

    @Test func anEmptyAuthorizationValueIsAMissingHeaderOnDelete() async throws {
        let backend = try S.backend(fixtures: true, adminToken: "s3cret")
        let response = await backend.respond(to: MockRequest(
            method: .DELETE, uri: "/api/v1/announcements/0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101", headers: ["Authorization": ""]))
        #expect(response.status == .unauthorized)
        #expect(response.errorMessage == "Missing Authorization header")
    }

    @Test func aTIFFMarkPaddedWithZerosIsNotAnImage() async throws {
        let backend = try S.backend()
        let created = try #require(await backend.respond(to: S.createRequest(S.createBody())).json)
        let id = try #require(created["id"]?.stringValue), password = try #require(created["managementPassword"]?.stringValue)
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + [UInt8](repeating: 0, count: 64)
        let response = await backend.respond(to: S.uploadRequest(
            id: id, authorization: S.basic(id, password), body: S.multipart(filename: "pet.tif", contentType: "image/tiff", bytes: tiff)))
        #expect(response.status == .badRequest)
        #expect(response.errorCode == "INVALID_FILE_FORMAT")
    }
}
