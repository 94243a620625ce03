import Foundation
import ContractModel
import MockBackend

/// Contract ids for the test paths, standing in for ContractKit's matcher.
enum TestContracts {
    static let id: @Sendable (String, String) -> String? = { method, path in
        let parts = path.split(separator: "/")
        switch (method, parts.count) {
        case ("POST", 3) where path == "/api/v1/announcements": return "createAnnouncement"
        case ("GET", 3) where path == "/api/v1/announcements": return "listAnnouncements"
        case ("GET", 4) where path.hasPrefix("/api/v1/announcements/"): return "getAnnouncement"
        case ("POST", 5) where path.hasPrefix("/api/v1/announcements/") && path.hasSuffix("/photos"): return "uploadPhoto"
        default: return nil
        }
    }
}

/// The idle timeout of test servers that do not test the idle timeout itself.
///
/// A wire test connects, then sends from another task hop; with the whole suite on two busy cores, the task pool can
/// leave a test waiting for over a minute between the two (CI saw 77 s), and the 60 s default would close the connection
/// first. Ten minutes is far beyond any stall seen and still ends a forgotten connection.
let patientIdleTimeout: Duration = .seconds(600)

/// Starts a server on 127.0.0.1:0, runs `body`, and shuts the server down whether `body` succeeds or throws.
func withServer<T>(
    rules: [FaultRule] = [],
    configuration: ServerConfiguration = ServerConfiguration(idleTimeout: patientIdleTimeout, quiet: true),
    responder: any MockResponder = EchoResponder(),
    admin: (any AdminHooks)? = nil,
    journalLimit: Int = 1000,
    _ body: (MockServer, ServerAddress) async throws -> T
) async throws -> T {
    let server = MockServer(configuration: configuration, responder: responder, faults: FaultLayer(rules: rules, seed: 1),
                            journal: Journal(limit: journalLimit), admin: admin, contractID: TestContracts.id)
    let address = try await server.start()
    do {
        let result = try await body(server, address)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}

/// The header admin writes with a body need (see `AdminRequestTrust`).
let jsonType = ["Content-Type": "application/json"]

/// A raw HTTP/1.1 request with a Content-Length body.
func rawRequest(_ method: String, _ path: String, body: String = "", headers: [String: String] = [:], close: Bool = false) -> String {
    var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
    if !body.isEmpty || method == "POST" || method == "PUT" { text += "Content-Length: \(body.utf8.count)\r\n" }
    if close { text += "Connection: close\r\n" }
    return text + "\r\n" + body
}
