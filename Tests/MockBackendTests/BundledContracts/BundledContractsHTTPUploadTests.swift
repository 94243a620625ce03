import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing

/// Every photo-upload row of petspot-api.md, in the real backend's check order, over HTTP.
@Suite struct BundledContractsHTTPUploadTests {
    typealias S = BundledContractsTestSupport

    @Test func theChecksRunInTheRealOrder401Then404Then403Then400Then413Then400() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            let (id, password) = try await http.create()
            let unknown = "00000000-0000-4000-8000-000000000000"
            let steps: [(String, String?, [UInt8], String, Int, String, String?)] = [
                (id, nil, S.png, "photo", 401, "UNAUTHENTICATED", nil),
                (id, "Bearer \(password)", S.png, "photo", 401, "UNAUTHENTICATED", nil),
                (id, "Basic %%%", S.png, "photo", 401, "UNAUTHENTICATED", nil),
                (id, "Basic " + Data("\(id)\(password)".utf8).base64EncodedString(), S.png, "photo", 401, "UNAUTHENTICATED", nil),
                (id, "Basic " + Data(":\(password)".utf8).base64EncodedString(), S.png, "photo", 401, "UNAUTHENTICATED", nil),
                (unknown, S.basic(unknown, password), S.png, "photo", 404, "NOT_FOUND", nil),
                (id, S.basic(id, "000000"), S.png, "photo", 403, "UNAUTHORIZED", nil),
                (id, S.basic(id, password), S.png, "document", 400, "MISSING_FILE", "photo"),
                (id, S.basic(id, password), Array("%PDF-1.7".utf8), "photo", 400, "INVALID_FILE_FORMAT", "file"),
            ]
            for (target, auth, bytes, name, status, code, field) in steps {
                let answer = try await http.upload(id: target, authorization: auth, bytes: bytes, name: name)
                #expect(answer.status == status, "\(code)")
                #expect(answer.errorCode == code)
                #expect(answer.errorField == field)
                #expect(answer.contractViolation == nil)
                #expect(answer.json?["error"]?["requestId"]?.stringValue == answer.header("request-id"))
            }
            #expect(try await http.get("/api/v1/announcements/\(id)").json?["photoUrl"] == .null)
            let users = mock.journal.entries().filter { $0.contract == "uploadPhoto" }.map(\.status)
            #expect(users == [401, 401, 401, 401, 401, 404, 403, 400, 400])
        }
    }

    @Test(.heavy) func aPhotoOfExactly20MiBIs413() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            let (id, password) = try await http.create()
            let bytes = S.png + [UInt8](repeating: 7, count: 20 * 1024 * 1024 - S.png.count)
            // Debug builds of MultipartKit scan about a microsecond per byte, so the answer may take a while on a busy machine.
            let answer = try await http.upload(id: id, authorization: S.basic(id, password), bytes: bytes, idleTimeout: 600)
            #expect(answer.status == 413)
            #expect(answer.errorCode == "PAYLOAD_TOO_LARGE")
            #expect(answer.contractViolation == nil)
        }
    }

    @Test func aBodyFarOverTheLimitIsRejectedWithoutReadingIt() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            let (id, password) = try await http.create()
            let bytes = S.png + [UInt8](repeating: 7, count: 30 * 1024 * 1024)
            let answer = try await http.upload(id: id, authorization: S.basic(id, password), bytes: bytes)
            #expect(answer.status == 413)
            #expect(answer.errorCode == "PAYLOAD_TOO_LARGE")
        }
    }

    @Test func aSecondUploadReplacesTheFirstAndTheExtensionFollowsTheContent() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            let (id, password) = try await http.create()
            #expect(try await http.upload(id: id, authorization: S.basic(id, password), bytes: S.png).status == 201)
            let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x3B]
            let second = try await http.upload(id: id, authorization: "BASIC " + Data("x:\(password)".utf8).base64EncodedString(), bytes: gif, filename: "photo.jpg")
            #expect(second.status == 201)
            let read = try await http.get("/api/v1/announcements/\(id)")
            #expect(read.json?["photoUrl"] == .string("/images/\(id).gif"))
            #expect(try await http.get("/images/\(id).png").status == 404)
            let image = try await http.get("/images/\(id).gif")
            #expect(image.header("Content-Type") == "image/gif")
            #expect([UInt8](image.body) == gif)
            #expect(mock.journal.entries().last { $0.contract == "uploadPhoto" }?.authUser == "x")
        }
    }
}
