import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An answer read over the network.
struct HTTPAnswer: Sendable {
    let status: Int
    /// Header names lowercased.
    let headers: [String: String]
    let body: Data

    var json: JSONValue? { try? JSONValue(parsing: body) }
    var errorCode: String? { json?["error"]?["code"]?.stringValue }
    var errorField: String? { json?["error"]?["field"]?.stringValue }
    var errorMessage: String? { json?["error"]?["message"]?.stringValue }
    func header(_ name: String) -> String? { headers[name.lowercased()] }
    var contractViolation: String? { header(ModelBackend.contractViolationHeader) }
}

/// Starts the mock on 127.0.0.1:0 with the repository's contracts, runs `body`, and always shuts it down.
func withPetSpotMock<T>(
    seed: UInt64? = 5, fixtures: Bool = false, adminToken: String? = "admin-secret", faults: [FaultRule] = [],
    dataDirectory: URL? = nil, allowBrowserAdmin: Bool = false, _ body: (ContractMock) async throws -> T
) async throws -> T {
    var options = ContractMock.Options(
        contracts: try BundledContractsTestSupport.loadedContracts(), seed: seed,
        fixtures: fixtures ? RecordFixture.bundledFile : nil, faults: faults, adminToken: adminToken, quiet: true,
        checkResponses: true)
    options.dataDirectory = dataDirectory
    options.idleTimeout = patientIdleTimeout
    options.allowBrowserAdmin = allowBrowserAdmin
    let mock = try await ContractMock.start(options)
    do {
        let result = try await body(mock)
        try await mock.shutdown()
        return result
    } catch {
        try? await mock.shutdown()
        throw error
    }
}

/// A URLSession client, like the real iOS app's, for talking to a started mock.
struct PetSpotHTTP: Sendable {
    let baseURL: URL

    init(_ mock: ContractMock) {
        baseURL = mock.baseURL
    }

    /// Sends one request; `idleTimeout` is a safety net for a hung server, never a speed check.
    func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil, idleTimeout: TimeInterval = 120) async throws -> HTTPAnswer {
        guard let url = URL(string: baseURL.absoluteString + path) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = idleTimeout
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let configuration = URLSessionConfiguration.ephemeral
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var lowered: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let k = key as? String, let v = value as? String { lowered[k.lowercased()] = v }
        }
        return HTTPAnswer(status: http.statusCode, headers: lowered, body: data)
    }

    func get(_ path: String, headers: [String: String] = [:]) async throws -> HTTPAnswer {
        try await send("GET", path, headers: headers)
    }

    func postJSON(_ path: String, _ json: JSONValue) async throws -> HTTPAnswer {
        try await send("POST", path, headers: ["Content-Type": "application/json"], body: json.data())
    }

    /// Creates an announcement and returns its id and management password.
    func create(_ body: JSONValue = BundledContractsTestSupport.createBody()) async throws -> (id: String, password: String) {
        let answer = try await postJSON("/api/v1/announcements", body)
        #expect(answer.status == 201)
        return (try #require(answer.json?["id"]?.stringValue), try #require(answer.json?["managementPassword"]?.stringValue))
    }

    /// Uploads `bytes` as the `photo` part with Basic auth.
    func upload(id: String, authorization: String?, bytes: [UInt8], name: String = "photo", filename: String? = "pet.png", idleTimeout: TimeInterval = 120) async throws -> HTTPAnswer {
        var headers = ["Content-Type": "multipart/form-data; boundary=XyZBoundary42"]
        if let authorization { headers["Authorization"] = authorization }
        let body = BundledContractsTestSupport.multipart(name: name, filename: filename, bytes: bytes)
        return try await send("POST", "/api/v1/announcements/\(id)/photos", headers: headers, body: Data(body.readableBytesView), idleTimeout: idleTimeout)
    }
}
