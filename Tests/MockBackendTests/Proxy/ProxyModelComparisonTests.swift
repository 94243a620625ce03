import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// A backend that shipped the newer email rule: a blank email is refused even next to a valid phone, and the
/// invalid-email message changed (petspot-api.md, "What the real backend changed later"). Everything else is the model.
private struct NewerEmailRuleBackend: MockResponder {
    let base: ModelBackend

    func respond(to request: MockRequest) async -> MockResponse {
        if request.method == .POST, request.path == "/api/v1/announcements",
            let body = try? JSONValue(parsing: Array(request.body.readableBytesView)), let email = body["email"]?.stringValue,
            email.trimmingCharacters(in: .whitespaces).isEmpty || !email.contains(".")
        {
            let envelope = #"{"error":{"requestId":"Abcdefghij","code":"INVALID_FORMAT","message":"email format is invalid","field":"email"}}"#
            return MockResponse(status: .badRequest, headers: ["Content-Type": "application/json; charset=utf-8", "request-id": "Abcdefghij"],
                                body: ByteBuffer(string: envelope))
        }
        return await base.respond(to: request)
    }
}

/// The validating proxy holds each answer against the model's, over real sockets: the server sits behind `FaultProxy`.
@Suite struct ProxyModelComparisonTests {
    struct Setup {
        let proxy: RunningFaultProxy
        let monitor: ExchangeMonitor
        var http: PetSpotHTTP { PetSpotHTTP(url: proxy.baseURL) }

        /// The violations of the last exchange the proxy journaled.
        func lastViolations() throws -> [ExchangeViolation] {
            try #require(proxy.journal.entries().last).violations
        }
    }

    private func withProxy<T>(newerEmailRule: Bool, _ body: (Setup) async throws -> T) async throws -> T {
        try await Self.withProxy(responder: { newerEmailRule ? NewerEmailRuleBackend(base: $0) as any MockResponder : $0 }, body)
    }

    /// Runs `body` with the validating proxy in front of `responder` (made around the faithful backend), both on
    /// 127.0.0.1 and always shut down.
    static func withProxy<T>(responder makeResponder: (ModelBackend) -> any MockResponder,
                             _ body: (Setup) async throws -> T) async throws -> T {
        let contracts = try BundledContractsTestSupport.loadedContracts()
        let backend = try ModelBackend(configuration: .init(contracts: contracts, seed: 3, adminToken: "admin-secret", checkResponses: false))
        let responder = makeResponder(backend)
        let server = MockServer(
            configuration: ServerConfiguration(idleTimeout: patientIdleTimeout, quiet: true), responder: responder, faults: FaultLayer(rules: [], seed: nil),
            journal: Journal(limit: 100), admin: nil,
            contractID: { method, path in contracts.routes.contractID(method: method, path: path) })
        let address = try await server.start()
        let monitor = ExchangeMonitor(validator: ExchangeValidator(contracts: contracts), coverage: ContractCoverage(contracts: contracts, source: "real"))
        let proxy: RunningFaultProxy
        do {
            proxy = try await FaultProxy.start(target: address.baseURL, contracts: contracts, exchangeObserver: monitor, idleTimeout: patientIdleTimeout)
        } catch {
            try? await server.shutdown()
            throw error
        }
        do {
            let result = try await body(Setup(proxy: proxy, monitor: monitor))
            try await proxy.shutdown()
            try await server.shutdown()
            return result
        } catch {
            try? await proxy.shutdown()
            try? await server.shutdown()
            throw error
        }
    }

    @Test func a400ToARequestTheModelAcceptsIsTheServersDifference() async throws {
        try await withProxy(newerEmailRule: true) { setup in
            let blank = try await setup.http.postJSON("/api/v1/announcements", BundledContractsTestSupport.createBody([("email", ""), ("phone", "123456789")]))
            #expect(blank.status == 400)
            let found = try setup.lastViolations()
            #expect(found.count == 1)
            let violation = try #require(found.first)
            #expect(violation.side == .server)
            #expect(violation.contract == "createAnnouncement")
            #expect(violation.pointer == "status")
            #expect(violation.expected.contains("the contract's model accepts this request"))
            #expect(violation.got == #"400 INVALID_FORMAT email "email format is invalid""#)
            #expect(setup.monitor.log.totals.violations == 1)
        }
    }

    @Test func anotherMessageForTheSameRefusalIsADifferenceToo() async throws {
        try await withProxy(newerEmailRule: true) { setup in
            _ = try await setup.http.postJSON("/api/v1/announcements", BundledContractsTestSupport.createBody([("email", "owner@example")]))
            // The schema refuses the email too (the client's side); the model's answer differs from the server's (the server's side).
            let violation = try #require(try setup.lastViolations().first { $0.side == .server })
            #expect(violation.pointer == "/error")
            #expect(violation.expected.hasPrefix(#"400 INVALID_FORMAT email "invalid email format""#))
            #expect(violation.got == #"400 INVALID_FORMAT email "email format is invalid""#)
        }
    }

    @Test func theModelItselfIsNeverADifference() async throws {
        try await withProxy(newerEmailRule: false) { setup in
            let bodies: [[(String, JSONValue?)]] = [
                [], [("email", ""), ("phone", "123456789")], [("email", "owner@example")], [("phone", " ")], [("species", nil)],
                [("lastSeenDate", "2999-01-01")], [("lastSeenDate", "2025-02-32")], [("lastSeenDate", "2025-02-30")],
            ]
            for changes in bodies {
                _ = try await setup.http.postJSON("/api/v1/announcements", BundledContractsTestSupport.createBody(changes))
                #expect(try setup.lastViolations().filter { $0.side == .server }.isEmpty, "\(changes.map(\.0))")
            }
            for query in ["", "?lat=50&lng=19", "?lat=50", "?range=0", "?lat=abc&lng=1"] {
                _ = try await setup.http.get("/api/v1/announcements\(query)")
                #expect(try setup.lastViolations().filter { $0.side == .server }.isEmpty, "\(query)")
            }
        }
    }

    @Test func undocumentedEndpointsBlameNeitherSideAndCoverageAgreesWithTheTotals() async throws {
        try await withProxy(newerEmailRule: false) { setup in
            let (id, _) = try await setup.http.create()
            // The admin mount's DELETE is documented: a 401 for a wrong token is a documented answer, not undocumented traffic.
            let delete = try await setup.http.send("DELETE", "/api/admin/v1/announcements/\(id)", headers: ["Authorization": "not-the-token"])
            #expect(delete.status == 401)
            #expect(try setup.lastViolations().isEmpty)
            let entry = try #require(setup.proxy.journal.entries().last)
            #expect(entry.contract == "adminDeleteAnnouncement")
            // A read under the admin mount is the read's contract (its x-also-at: 9ae1f4b mounts the router twice).
            _ = try await setup.http.get("/api/admin/v1/announcements/\(id)")
            #expect(try setup.lastViolations().isEmpty)
            #expect(setup.proxy.journal.entries().last?.contract == "getAnnouncement")
            // Unknown paths are not documented.
            for path in ["/api/v2/nothing", "/api/v2/nothing"] {
                _ = try await setup.http.get(path)
                let found = try setup.lastViolations()
                #expect(found.count == 1, "\(path)")
                #expect(found.first?.isUndocumented == true, "\(path)")
                #expect(found.first?.side == .contracts, "\(path)")
            }
            let report = ExchangeRunReport(name: "t", monitor: setup.monitor).json()
            #expect(report["totals"]?["undocumented"]?.intValue == 2)
            let listed = report["coverage"]?["undocumented"]?.arrayValue ?? []
            #expect(listed.compactMap { $0["observed"]?.intValue }.reduce(0, +) == 2)
            #expect(listed.compactMap { $0["label"]?.stringValue } == ["GET /api/v2/nothing"])
            #expect(report["coverage"]?["undocumentedAnswers"]?.arrayValue == [])
        }
    }

    @Test func aListAnsweredDespiteAParameterTheModelRefusesIsADifference() throws {
        let contracts = try BundledContractsTestSupport.loadedContracts()
        let validator = ExchangeValidator(contracts: contracts)
        let exchange = Exchange(method: "GET", path: "/api/v1/announcements", query: "lat=50", status: 200,
                                responseHeaders: [HeaderField(name: "Content-Type", value: "application/json; charset=utf-8"),
                                                  HeaderField(name: "request-id", value: "Abcdefghij")],
                                responseBody: Array(#"{"data":[]}"#.utf8))
        let found = validator.validate(exchange)
        #expect(found.count == 1)
        #expect(found.first?.pointer == "status")
        #expect(found.first?.expected.hasPrefix(#"400 INVALID_PARAMETER lng "Parameter 'lng' is required when 'lat' is provided""#) == true)
    }
}
