import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing

/// The bad-input list of issue 3 that concerns the backend's own logic, sent byte for byte.
@Suite struct BundledContractsHTTPBadInputTests {
    typealias S = BundledContractsTestSupport

    /// Sends `request` on a fresh connection and reads the whole answer (the request asks the server to close).
    func exchange(_ mock: ContractMock, _ request: [UInt8]) async throws -> RawRead {
        let connection = try await RawConnection.connect(port: mock.port)
        defer { connection.close() }
        try await connection.send(request)
        return await connection.readResponse()
    }

    func raw(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) -> [UInt8] {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(body.count)\r\n\r\n"
        return Array(text.utf8) + body
    }

    func envelope(_ read: RawRead) -> (code: String?, field: String?) {
        let json = read.body.flatMap { try? JSONValue(parsing: Data($0)) }
        return (json?["error"]?["code"]?.stringValue, json?["error"]?["field"]?.stringValue)
    }

    @Test(arguments: [
        ("application/json", "{\"species\": \"DOG\",", 400, "INVALID_FORMAT", nil),
        ("application/json", "[1, 2]", 400, "INVALID_FORMAT", nil),
        ("application/json", "\"just a string\"", 400, "INVALID_FORMAT", nil),
        ("application/json", "", 400, "MISSING_VALUE", "species"),
        ("text/plain", "{\"species\": \"DOG\"}", 400, "MISSING_VALUE", nil),
        ("application/xml", "<species>DOG</species>", 400, "MISSING_VALUE", nil),
    ] as [(String, String, Int, String, String?)])
    func createSurvivesBadBodies(contentType: String, body: String, status: Int, code: String, field: String?) async throws {
        try await withPetSpotMock { mock in
            let read = try await exchange(mock, raw("POST", "/api/v1/announcements", headers: [("Content-Type", contentType)], body: Array(body.utf8)))
            #expect(read.status == status)
            #expect(envelope(read).code == code)
            #expect(envelope(read).field == field)
            #expect(!read.text.lowercased().contains(ModelBackend.contractViolationHeader))
        }
    }

    @Test func uploadSurvivesTruncatedMultipartPartsWithoutFilenameAndBadBase64() async throws {
        try await withPetSpotMock { mock in
            let (id, password) = try await PetSpotHTTP(mock).create()
            let multipart = ("Content-Type", "multipart/form-data; boundary=XyZBoundary42")
            let full = Array(S.multipart(bytes: S.png).readableBytesView)
            let cases: [([(String, String)], [UInt8], Int, String)] = [
                ([multipart, ("Authorization", S.basic(id, password))], Array(full.prefix(full.count - 20)), 400, "INVALID_FORMAT"),
                ([multipart, ("Authorization", S.basic(id, password))], Array(full.prefix(40)), 400, "INVALID_FORMAT"),
                ([multipart, ("Authorization", S.basic(id, password))], Array(S.multipart(filename: nil, bytes: S.png).readableBytesView), 400, "MISSING_FILE"),
                ([multipart, ("Authorization", "Basic ####")], full, 401, "UNAUTHENTICATED"),
                ([multipart, ("Authorization", "Basic " + String(repeating: "A", count: 5))], full, 401, "UNAUTHENTICATED"),
                ([("Content-Type", "multipart/form-data; boundary="), ("Authorization", S.basic(id, password))], full, 400, "INVALID_FORMAT"),
            ]
            for (headers, body, status, code) in cases {
                let read = try await exchange(mock, raw("POST", "/api/v1/announcements/\(id)/photos", headers: headers, body: body))
                #expect(read.status == status, "\(code)")
                #expect(envelope(read).code == code)
            }
        }
    }

    @Test(arguments: [
        "/images/../contracts/fixtures/pets.json", "/images/..%2F..%2FPackage.swift", "/images/%2e%2e%2fPackage.swift",
        "/api/v1/announcements/..", "/api/v1/announcements/../../api/health", "/api/v1/announcements/0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101%2Fphotos",
        "/api/v1/../v1/announcements/0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101", "/images/0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101.png%00.txt",
        "/images/0F8A2B6C-1D3E-4F50-8A61-B7C8D9E0F101.png", "/images/0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101.jpeg",
    ])
    func pathsWithDotsOrEncodedSlashesNeverEscape(path: String) async throws {
        try await withPetSpotMock(fixtures: true) { mock in
            let read = try await exchange(mock, raw("GET", path))
            #expect(read.status == 404)
            #expect(envelope(read).code == "NOT_FOUND")
            #expect(!read.text.contains("announcements\": ["))
            #expect(!read.text.contains("swift-tools-version"))
        }
    }

    @Test func theRealImagePathStillWorksByteForByte() async throws {
        try await withPetSpotMock(fixtures: true) { mock in
            let read = try await exchange(mock, raw("GET", "/images/0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101.png"))
            #expect(read.status == 200)
            #expect(read.text.lowercased().contains("content-type: image/png"))
            #expect(read.body.map { ImageType.detect($0) } == .png)
        }
    }
}
