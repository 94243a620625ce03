import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

@Suite struct BundledContractsPhotoUploadTests {
    typealias S = BundledContractsTestSupport

    /// Creates an announcement and returns its id and password.
    func created(_ backend: ModelBackend, microchip: String? = nil) async throws -> (id: String, password: String) {
        let response = await backend.respond(to: S.createRequest(S.createBody([("microchipNumber", microchip.map(JSONValue.string))])))
        let json = try #require(response.json)
        return (try #require(json["id"]?.stringValue), try #require(json["managementPassword"]?.stringValue))
    }

    func get(_ backend: ModelBackend, _ uri: String) async -> MockResponse {
        await backend.respond(to: MockRequest(method: .GET, uri: uri))
    }

    @Test func aValidUploadAnswers201EmptyObjectAndServesThePhoto() async throws {
        let backend = try S.backend()
        let (id, password) = try await created(backend)
        let response = await backend.respond(to: S.uploadRequest(id: id, authorization: S.basic(id, password), body: S.multipart(bytes: S.png)))
        #expect(response.status == .created)
        #expect(response.json == .object(JSONObject()))
        #expect(response.contractViolation == nil)
        let announcement = await get(backend, "/api/v1/announcements/\(id)")
        #expect(announcement.json?["photoUrl"] == .string("/images/\(id).png"))
        #expect(announcement.contractViolation == nil)
        let image = await get(backend, "/images/\(id).png")
        #expect(image.status == .ok)
        #expect(image.headers.first(name: "Content-Type") == "image/png")
        #expect(Array(image.body.readableBytesView) == S.png)
    }

    @Test(arguments: [
        nil, "", "Bearer abc", "Basic", "Basic !!!not-base64!!!", "Basic " + Data("no-colon".utf8).base64EncodedString(),
        "Basic " + Data(":123456".utf8).base64EncodedString(), "Basic " + Data("user:".utf8).base64EncodedString(),
    ] as [String?])
    func aMissingOrMalformedHeaderIs401(authorization: String?) async throws {
        let backend = try S.backend()
        let (id, _) = try await created(backend)
        let response = await backend.respond(to: S.uploadRequest(id: id, authorization: authorization, body: S.multipart(bytes: S.png)))
        #expect(response.status == .unauthorized)
        #expect(response.errorCode == "UNAUTHENTICATED")
        #expect(response.contractViolation == nil)
    }

    @Test func theHeaderIsCheckedBeforeTheIdAndTheIdBeforeThePassword() async throws {
        let backend = try S.backend()
        let unknown = "00000000-0000-4000-8000-000000000000"
        let badHeaderUnknownID = await backend.respond(to: S.uploadRequest(id: unknown, authorization: "Bearer x", body: S.multipart(bytes: S.png)))
        #expect(badHeaderUnknownID.status == .unauthorized)
        let unknownID = await backend.respond(to: S.uploadRequest(id: unknown, authorization: S.basic(unknown, "123456"), body: S.multipart(bytes: [1, 2])))
        #expect(unknownID.status == .notFound)
        #expect(unknownID.errorCode == "NOT_FOUND")
        let (id, password) = try await created(backend)
        let wrong = String((Int(password) ?? 100_000) == 999_999 ? 100_000 : (Int(password) ?? 100_000) + 1)
        let wrongPassword = await backend.respond(to: S.uploadRequest(id: id, authorization: S.basic(id, wrong), body: ByteBuffer()))
        #expect(wrongPassword.status == .forbidden)
        #expect(wrongPassword.errorCode == "UNAUTHORIZED")
        #expect(wrongPassword.contractViolation == nil)
    }

    @Test func onlyThePasswordIsComparedAndTheSchemeIsCaseInsensitive() async throws {
        let backend = try S.backend()
        let (id, password) = try await created(backend)
        let encoded = Data("someone-else:\(password)".utf8).base64EncodedString()
        for scheme in ["basic", "BASIC", "Basic"] {
            let response = await backend.respond(to: S.uploadRequest(id: id, authorization: "\(scheme) \(encoded)", body: S.multipart(bytes: S.png)))
            #expect(response.status == .created, "\(scheme)")
        }
    }

    @Test func withoutAPhotoFilePartTheAnswerIsMissingFile() async throws {
        let backend = try S.backend()
        let (id, password) = try await created(backend)
        let auth = S.basic(id, password)
        // No file, or a file under another name: the contract's MISSING_FILE (the real server answers 500 for the latter).
        let noFile: [(String, MockRequest)] = [
            ("other field name", S.uploadRequest(id: id, authorization: auth, body: S.multipart(name: "file", bytes: S.png))),
            ("part without filename", S.uploadRequest(id: id, authorization: auth, body: S.multipart(filename: nil, bytes: S.png))),
        ]
        for (label, request) in noFile {
            let response = await backend.respond(to: request)
            #expect(response.status == .badRequest, "\(label)")
            #expect(response.errorCode == "MISSING_FILE", "\(label)")
            #expect(response.errorMessage == "Photo field is required", "\(label)")
            #expect(response.errorField == "photo", "\(label)")
            #expect(response.contractViolation == nil, "\(label)")
        }
        // Malformed multipart: the contract's 400 INVALID_FORMAT (the real server answers 500).
        let malformed: [(String, MockRequest)] = [
            ("empty body", S.uploadRequest(id: id, authorization: auth, body: ByteBuffer())),
            ("truncated multipart", S.uploadRequest(id: id, authorization: auth, body: truncated(S.multipart(bytes: S.png)))),
            ("garbage", S.uploadRequest(id: id, authorization: auth, body: ByteBuffer(string: "not multipart at all"))),
            ("boundary mismatch", S.uploadRequest(id: id, authorization: auth, body: S.multipart(bytes: S.png, boundary: "other"))),
        ]
        for (label, request) in malformed {
            let response = await backend.respond(to: request)
            #expect(response.status == .badRequest, "\(label)")
            #expect(response.errorCode == "INVALID_FORMAT", "\(label)")
            #expect(response.errorField == nil, "\(label)")
            #expect(response.contractViolation == nil, "\(label)")
        }
        var notMultipart = S.uploadRequest(id: id, authorization: auth, body: S.multipart(bytes: S.png))
        notMultipart.headers.replaceOrAdd(name: "Content-Type", value: "application/octet-stream")
        #expect(await backend.respond(to: notMultipart).errorCode == "MISSING_FILE")
        var noBoundary = notMultipart
        noBoundary.headers.replaceOrAdd(name: "Content-Type", value: "multipart/form-data")
        #expect(await backend.respond(to: noBoundary).errorCode == "INVALID_FORMAT")
    }

    /// busboy finishes a body whose first delimiter is the closing one normally, with no file (petspot-api.md, photo
    /// checks): the answer is the contract's stated file-required answer, not the malformed one.
    @Test func aBodyWithNoPartsAtAllIsTheStatedFileRequiredAnswer() async throws {
        let backend = try S.backend()
        let (id, password) = try await created(backend)
        let auth = S.basic(id, password)
        let declared = try S.loadedContracts().state.declaration(for: "uploadPhoto")?.file?.answer(.required)
        let required = try #require(declared)
        #expect(try S.loadedContracts().state.declaration(for: "uploadPhoto")?.file?.answer(.malformed)?.code != required.code)
        for body in ["--XyZBoundary42--", "--XyZBoundary42--\r\n", "\r\n--XyZBoundary42--\r\n", "a preamble\r\n--XyZBoundary42--\r\nan epilogue"] {
            let response = await backend.respond(to: S.uploadRequest(id: id, authorization: auth, body: ByteBuffer(string: body)))
            #expect(response.status.code == UInt(required.status), "\(body.debugDescription)")
            #expect(response.errorCode == required.code, "\(body.debugDescription)")
            #expect(response.errorMessage == required.message, "\(body.debugDescription)")
            #expect(response.errorField == required.field, "\(body.debugDescription)")
            #expect(response.contractViolation == nil, "\(body.debugDescription)")
        }
        // A closing delimiter after a part that never completed is still a body cut short, and a near miss is no delimiter.
        for body in ["--XyZBoundary42\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\n\r\nab--XyZBoundary42--",
                     "--XyZBoundary42-", "--XyZBoundary4--"] {
            let response = await backend.respond(to: S.uploadRequest(id: id, authorization: auth, body: ByteBuffer(string: body)))
            #expect(response.errorCode != required.code, "\(body.debugDescription)")
        }
    }

    func truncated(_ buffer: ByteBuffer) -> ByteBuffer {
        var copy = buffer
        return copy.readSlice(length: buffer.readableBytes - 12) ?? ByteBuffer()
    }

    @Test(.heavy) func aFileOfExactly20MiBIsTooLargeAndOneByteLessIsFine() async throws {
        let backend = try S.backend()
        let (id, password) = try await created(backend)
        let limit = 20 * 1024 * 1024
        var big = S.png + [UInt8](repeating: 0, count: limit - S.png.count)
        let tooLarge = await backend.respond(to: S.uploadRequest(id: id, authorization: S.basic(id, password), body: S.multipart(bytes: big)))
        #expect(tooLarge.status == .payloadTooLarge)
        #expect(tooLarge.errorCode == "PAYLOAD_TOO_LARGE")
        #expect(tooLarge.contractViolation == nil)
        big.removeLast()
        let fits = await backend.respond(to: S.uploadRequest(id: id, authorization: S.basic(id, password), body: S.multipart(bytes: big)))
        #expect(fits.status == .created)
    }

    @Test func anOversizedUploadStillChecksCredentialsFirst() async throws {
        let backend = try S.backend()
        let (id, password) = try await created(backend)
        let anonymous = S.uploadRequest(id: id, authorization: nil, body: ByteBuffer())
        #expect(backend.bodyLimit(for: anonymous) > 20 * 1024 * 1024)
        #expect(await backend.respondToOversizedBody(anonymous).status == .unauthorized)
        let authorized = S.uploadRequest(id: id, authorization: S.basic(id, password), body: ByteBuffer())
        let response = await backend.respondToOversizedBody(authorized)
        #expect(response.status == .payloadTooLarge)
        #expect(response.errorCode == "PAYLOAD_TOO_LARGE")
    }

    @Test func contentThatIsNotAnImageIsInvalidFileFormatWhateverItsDeclaredType() async throws {
        let backend = try S.backend()
        let (id, password) = try await created(backend)
        let body = S.multipart(filename: "pet.png", contentType: "image/png", bytes: Array("just some text, not a picture".utf8))
        let response = await backend.respond(to: S.uploadRequest(id: id, authorization: S.basic(id, password), body: body))
        #expect(response.status == .badRequest)
        #expect(response.errorCode == "INVALID_FILE_FORMAT")
        #expect(response.errorField == "file")
        #expect(response.contractViolation == nil)
    }

    @Test func theExtensionFollowsTheDetectedTypeAndASecondUploadReplacesTheFirst() async throws {
        let backend = try S.backend()
        let (id, password) = try await created(backend)
        let auth = S.basic(id, password)
        _ = await backend.respond(to: S.uploadRequest(id: id, authorization: auth, body: S.multipart(bytes: S.png)))
        let second = S.multipart(filename: "holiday.png", contentType: "image/png", bytes: S.jpeg)
        #expect(await backend.respond(to: S.uploadRequest(id: id, authorization: auth, body: second)).status == .created)
        let announcement = await get(backend, "/api/v1/announcements/\(id)")
        #expect(announcement.json?["photoUrl"] == .string("/images/\(id).jpeg"))
        #expect(await get(backend, "/images/\(id).png").status == .notFound)
        let image = await get(backend, "/images/\(id).jpeg")
        #expect(image.headers.first(name: "Content-Type") == "image/jpeg")
        #expect(Array(image.body.readableBytesView) == S.jpeg)
    }

    @Test func theUploadedFileNameNeverReachesAPath() async throws {
        let backend = try S.backend()
        let (id, password) = try await created(backend)
        let body = S.multipart(filename: "../../etc/passwd.png", bytes: S.png)
        #expect(await backend.respond(to: S.uploadRequest(id: id, authorization: S.basic(id, password), body: body)).status == .created)
        #expect(await get(backend, "/api/v1/announcements/\(id)").json?["photoUrl"] == .string("/images/\(id).png"))
    }
}
