import ContractKit
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend
@testable import MockCommands
@testable import spotcheck

/// `spotcheck verify`'s exit status by verdict, through the command: a server that breaks a stated rule fails; one that
/// differs only where the contracts state nothing gets a note, exits 0, and fails under `--strict`.
@Suite struct VerifyVerdictTests {
    /// A server written here: the faithful backend of `contracts` with `bend` applied to every answer, on 127.0.0.1.
    struct BentServer: MockResponder {
        let base: ModelBackend
        let bend: @Sendable (MockRequest, MockResponse) -> MockResponse
        /// What the server does to a request before its faithful backend reads it (undoing what `bend` renamed).
        var unbend: @Sendable (MockRequest) -> MockRequest = { $0 }

        func respond(to request: MockRequest) async -> MockResponse {
            let request = unbend(request)
            return bend(request, await base.respond(to: request))
        }
        func bodyLimit(for head: MockRequest) -> Int { base.bodyLimit(for: head) }
        func respondToOversizedBody(_ head: MockRequest) async -> MockResponse { await base.respondToOversizedBody(head) }

        /// Runs `body` with such a server's base URL, always shutting it down.
        static func with<T>(contracts: URL, bend: @escaping @Sendable (MockRequest, MockResponse) -> MockResponse,
                            unbend: @escaping @Sendable (MockRequest) -> MockRequest = { $0 }, tokenKey: String? = nil,
                            _ body: (URL) async throws -> T) async throws -> T {
            var logger = Logger(label: "test.verify-verdicts")
            logger.logLevel = .critical
            var set = try ContractSet.load(from: contracts)
            // The key the server was deployed with (its JWT_SECRET); nil: a random one of the model's own.
            set.deploymentSecrets = DeploymentSecrets(token: tokenKey, tokenSource: tokenKey.map { _ in "the test" })
            let backend = try ModelBackend(configuration: .init(contracts: set, adminToken: "tajnehasloadmina", checkResponses: false), logger: logger)
            let server = MockServer(configuration: ServerConfiguration(logger: logger, quiet: true), responder: BentServer(base: backend, bend: bend, unbend: unbend),
                                    faults: FaultLayer(), journal: Journal(), admin: nil, contractID: { _, _ in nil })
            let address = try await server.start()
            do {
                let result = try await body(address.baseURL)
                try await server.shutdown()
                return result
            } catch {
                try await server.shutdown()
                throw error
            }
        }
    }

    static func verify(contracts: String, target: URL, cases: Int = 200, _ extra: [String] = []) async throws -> (Int32, String) {
        let command = try VerifyCommand.parse(["--timeout", "120", "--contracts", contracts, "--target", target.absoluteString, "--skip", "photo of 20 MiB",
                                               "--seed", "24", "--cases", String(cases), "--admin-token", "tajnehasloadmina"] + extra)
        let lines = RunCommandTests.Lines()
        let code = await command.execute(print: { lines.add($0) })
        return (code, lines.text)
    }

    /// A copy of the bundled contracts whose stored announcement leaves undeclared members free (no
    /// `additionalProperties: false`), without the known-defects list (so `--strict` fails on notes alone).
    static func openContracts() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verdicts-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: RunCommandTests.contracts), to: folder)
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("known-defects.json"))
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("versions"))
        let schema = folder.appendingPathComponent("schemas/Announcement.json")
        let text = try String(contentsOf: schema, encoding: .utf8)
        let open = text.replacingOccurrences(of: ",\n  \"additionalProperties\": false", with: "")
        #expect(open != text)
        try open.write(to: schema, atomically: true, encoding: .utf8)
        return folder
    }

    /// Adds a member the open schema does not declare to every read of one announcement.
    static func addLikes(_ request: MockRequest, _ response: MockResponse) -> MockResponse {
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: false)
        guard request.method == .GET, response.status == .ok, segments.count == 5, segments[4].count > 0,
            request.path.hasPrefix("/api/v1/announcements/")
        else { return response }
        return DriftResponder.rewriteJSON(response) { body in
            guard var object = body.objectValue else { return body }
            object["likes"] = 3
            return .object(object)
        }
    }

    @Test func aMemberTheContractsLeaveFreeIsANoteExit0AndFailsUnderStrict() async throws {
        let contracts = try Self.openContracts()
        defer { try? FileManager.default.removeItem(at: contracts) }
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("verdicts-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }
        let (code, output) = try await BentServer.with(contracts: contracts, bend: Self.addLikes) { url in
            try await Self.verify(contracts: contracts.path, target: url, ["--json", json.path])
        }
        #expect(code == 0, "\(output)")
        #expect(output.contains("≈ note: getAnnouncement"), "\(output)")
        #expect(output.contains("assumed: getAnnouncement 200: the response schema does not declare /likes"), "\(output)")
        #expect(!output.contains("  ✗ "), "\(output)")
        let report = try JSONValue(parsing: Data(contentsOf: json))
        #expect((report["summary"]?["notes"]?.numberValue ?? 0) >= 1)
        #expect(report["summary"]?["failed"] == .number(0))

        let (strictCode, strictOutput) = try await BentServer.with(contracts: contracts, bend: Self.addLikes) { url in
            try await Self.verify(contracts: contracts.path, target: url, ["--strict"])
        }
        #expect(strictCode == 1, "\(strictOutput)")
        #expect(strictOutput.contains("✗ note: getAnnouncement"), "\(strictOutput)")
    }

    @Test func aDocumentedMessageChangedFailsEvenWithoutStrict() async throws {
        let contracts = try Self.openContracts()
        defer { try? FileManager.default.removeItem(at: contracts) }
        let (code, output) = try await BentServer.with(contracts: contracts, bend: { _, response in
            DriftResponder.rewriteJSON(response) { body in
                guard body["error"]?["message"]?.stringValue == "invalid email format", var error = body["error"]?.objectValue else { return body }
                error["message"] = "email format is invalid"
                return .object(["error": .object(error)])
            }
        }) { url in
            // Every systematic case: the email format cases come late in the interleaving.
            try await Self.verify(contracts: contracts.path, target: url, cases: 1000)
        }
        #expect(code == 1, "\(output)")
        #expect(output.contains("FAIL") && output.contains("createAnnouncement › email without domain"), "\(output)")
        #expect(output.contains("  ✗ createAnnouncement"), "\(output)")
        #expect(output.contains("server \"email format is invalid\""), "\(output)")
    }
}
