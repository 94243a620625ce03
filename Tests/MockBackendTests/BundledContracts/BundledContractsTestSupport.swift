import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// Shared, immutable test inputs for the PetSpot backend suites.
enum BundledContractsTestSupport {
    /// The repository's contracts, loaded once (they never change during a run).
    static let contracts: Result<ContractSet, ContractLoadError> = Result { () throws(ContractLoadError) in
        try ContractSet.load(from: ContractSet.bundledDirectory)
    }

    /// A fixed "now" so dates and timestamps are predictable: 2025-11-20T12:00:00.000Z.
    static let now = Date(timeIntervalSince1970: 1_763_640_000)

    /// A tiny valid PNG.
    static let png: [UInt8] = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4UaEBRAwQCgAp7gWhjAnOiAAAAABJRU5ErkJggg==") ?? Data())
    /// The start of a JPEG file.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xD9]

    static func loadedContracts() throws -> ContractSet { try contracts.get() }

    /// The stored announcement's fields as the bundled `Announcement.json` declares them, in order (written out here so
    /// a test notices when the contracts' order changes).
    static let storedAnnouncementKeys = [
        "id", "petName", "species", "breed", "sex", "age", "description", "microchipNumber", "locationLatitude",
        "locationLongitude", "lastSeenDate", "email", "phone", "photoUrl", "status", "reward", "createdAt", "updatedAt",
    ]

    /// A backend with a fixed clock and seed; `fixtures` preloads the bundled pets when true.
    static func backend(seed: UInt64 = 7, fixtures: Bool = false, adminToken: String? = "admin-secret") throws -> ModelBackend {
        let loaded = fixtures ? try RecordFixture.load(from: RecordFixture.bundledFile) : []
        return try ModelBackend(configuration: .init(
            contracts: try loadedContracts(), seed: seed, fixtures: loaded, adminToken: adminToken, checkResponses: true,
            now: { BundledContractsTestSupport.now }))
    }

    /// A valid create body; `changes` override or (with `nil`) remove members, keeping the contract's order.
    static func createBody(_ changes: [(String, JSONValue?)] = []) -> JSONValue {
        var object: JSONObject = [
            "petName": "Rex", "species": "DOG", "breed": "Beagle", "sex": "MALE", "age": 3, "description": "Brown collar",
            "microchipNumber": "123450000001", "locationLatitude": 52.2297, "locationLongitude": 21.0122,
            "email": "owner@example.com", "phone": "+48 123 456 789", "lastSeenDate": "2025-11-18", "status": "MISSING",
            "reward": "100 PLN",
        ]
        for (key, value) in changes { object[key] = value }
        return .object(object)
    }

    static func jsonHeaders(_ extra: [(String, String)] = []) -> HTTPHeaders {
        HTTPHeaders([("Content-Type", "application/json")] + extra)
    }

    static func createRequest(_ body: JSONValue) -> MockRequest {
        MockRequest(method: .POST, uri: "/api/v1/announcements", headers: jsonHeaders(), body: ByteBuffer(string: body.serialized()))
    }

    /// A multipart body with one part; `filename` nil makes it a text field.
    static func multipart(
        name: String = "photo", filename: String? = "pet.png", contentType: String = "image/png", bytes: [UInt8], boundary: String = "XyZBoundary42"
    ) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString("--\(boundary)\r\n")
        let file = filename.map { "; filename=\"\($0)\"" } ?? ""
        buffer.writeString("Content-Disposition: form-data; name=\"\(name)\"\(file)\r\n")
        buffer.writeString("Content-Type: \(contentType)\r\n\r\n")
        buffer.writeBytes(bytes)
        buffer.writeString("\r\n--\(boundary)--\r\n")
        return buffer
    }

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    static func uploadRequest(id: String, authorization: String?, body: ByteBuffer, boundary: String = "XyZBoundary42") -> MockRequest {
        var headers = HTTPHeaders([("Content-Type", "multipart/form-data; boundary=\(boundary)")])
        if let authorization { headers.add(name: "Authorization", value: authorization) }
        return MockRequest(method: .POST, uri: "/api/v1/announcements/\(id)/photos", headers: headers, body: body)
    }
}

extension MockResponse {
    /// The body parsed as JSON, or nil.
    var json: JSONValue? { try? JSONValue(parsing: Data(body.readableBytesView)) }
    /// The error envelope's code.
    var errorCode: String? { json?["error"]?["code"]?.stringValue }
    /// The error envelope's field.
    var errorField: String? { json?["error"]?["field"]?.stringValue }
    var errorMessage: String? { json?["error"]?["message"]?.stringValue }
    /// The contract-violation header the backend adds when an answer breaks its contract.
    var contractViolation: String? { headers.first(name: ModelBackend.contractViolationHeader) }
}
