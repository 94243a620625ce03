import ContractKit
import Foundation
import Testing

@testable import ContractModel
@testable import MockBackend

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts the mock exactly as `spotcheck serve` does (127.0.0.1, port 0) and always shuts it down.
func withConformanceServer<T>(
    contracts: ContractSet? = nil, knownDefects: Bool = false, adminToken: String? = nil, _ body: (PetSpotHTTP) async throws -> T
) async throws -> T {
    var options = ContractMock.Options(
        contracts: try contracts ?? BundledContractsTestSupport.loadedContracts(), seed: 12, adminToken: adminToken, quiet: true, checkResponses: true)
    options.reproduceKnownDefects = knownDefects
    options.idleTimeout = patientIdleTimeout
    let mock = try await ContractMock.start(options)
    do {
        let result = try await body(PetSpotHTTP(mock))
        try await mock.shutdown()
        return result
    } catch {
        try? await mock.shutdown()
        throw error
    }
}

/// One documented answer: status, code, message, and the field (nil = the key must be absent).
struct ExpectedError: Sendable, CustomStringConvertible {
    let status: Int
    let code: String
    let message: String
    let field: String?

    init(_ status: Int, _ code: String, _ message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    var description: String { "\(status) \(code) \(message) field=\(field ?? "-")" }

    /// Checks the whole envelope of `answer`, its request-id (unless the body parser answered) and its content type.
    func check(_ answer: HTTPAnswer, requestIDHeader: Bool = true, _ comment: Comment? = nil) {
        #expect(answer.status == status, comment)
        #expect(answer.errorCode == code, comment)
        #expect(answer.errorMessage == message, comment)
        #expect(answer.errorField == field, comment)
        let error = answer.json?["error"]?.objectValue
        #expect(error?.keys == (field == nil ? ["requestId", "code", "message"] : ["requestId", "code", "message", "field"]), comment)
        #expect(answer.header("Content-Type") == "application/json; charset=utf-8", comment)
        if requestIDHeader {
            let id = answer.header("request-id")
            #expect(id?.wholeMatch(of: /[A-Za-z0-9]{10}/) != nil, comment)
            #expect(answer.json?["error"]?["requestId"]?.stringValue == id, comment)
        } else {
            #expect(answer.header("request-id") == nil, comment)
            #expect(answer.json?["error"]?["requestId"] == "unknown", comment)
        }
        #expect(answer.contractViolation == nil, comment)
    }
}

extension PetSpotHTTP {
    /// A valid minimal create body with `changes` applied (nil removes a member).
    static func body(_ changes: [(String, JSONValue?)] = []) -> JSONValue {
        var object: JSONObject = [
            "species": "CAT", "sex": "FEMALE", "locationLatitude": 50.06, "locationLongitude": 19.94, "phone": "123456789",
            "lastSeenDate": "2025-11-17", "status": "FOUND",
        ]
        for (key, value) in changes { object[key] = value }
        return .object(object)
    }

    func createRaw(_ text: String, contentType: String? = "application/json") async throws -> HTTPAnswer {
        try await send("POST", "/api/v1/announcements", headers: contentType.map { ["Content-Type": $0] } ?? [:], body: Data(text.utf8))
    }

    /// A multipart body built from raw parts: (name, filename or nil for a text field, bytes).
    static func multipart(_ parts: [(String, String?, [UInt8])], boundary: String = "B0undary", close: Bool = true) -> Data {
        var data = Data()
        for (name, filename, bytes) in parts {
            var disposition = "form-data; name=\"\(name)\""
            if let filename { disposition += "; filename=\"\(filename)\"" }
            data.append(Data("--\(boundary)\r\nContent-Disposition: \(disposition)\r\n\r\n".utf8))
            data.append(Data(bytes))
            data.append(Data("\r\n".utf8))
        }
        if close { data.append(Data("--\(boundary)--\r\n".utf8)) }
        return data
    }

    func uploadRaw(id: String, authorization: String?, body: Data, contentType: String = "multipart/form-data; boundary=B0undary") async throws -> HTTPAnswer {
        var headers = ["Content-Type": contentType]
        if let authorization { headers["Authorization"] = authorization }
        return try await send("POST", "/api/v1/announcements/\(id)/photos", headers: headers, body: body)
    }
}
