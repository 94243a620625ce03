import ArgumentParser
import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing

@testable import MockCommands

/// `--validate`: serve checks the client's side by default, proxy everything; both can be told otherwise.
@Suite struct ValidationScopeTests {
    static let contracts = ProxyCommandTests.contracts

    private func monitor(_ arguments: [String], defaultScope: ValidationScope) throws -> ExchangeMonitor {
        let options = try TrafficCheckOptions.parse(arguments)
        return try options.monitor(contracts: try ContractSet.load(from: URL(fileURLWithPath: Self.contracts)), source: "mock", defaultScope: defaultScope)
    }

    @Test func theDefaultScopeAppliesUnlessValidateOrNoValidateIsGiven() throws {
        let requests = try monitor([], defaultScope: .requests)
        #expect(requests.validator != nil)
        #expect(!requests.checksAnswers)
        let all = try monitor([], defaultScope: .all)
        #expect(all.validator != nil && all.checksAnswers)
        #expect(try monitor(["--validate", "all"], defaultScope: .requests).checksAnswers)
        #expect(try monitor(["--validate", "off"], defaultScope: .all).validator == nil)
        #expect(try monitor(["--no-validate"], defaultScope: .all).validator == nil)
        #expect(try monitor(["--no-validate", "--validate", "off"], defaultScope: .all).validator == nil)
    }

    @Test func contradictoryOrUnknownScopesAreUsageErrors() throws {
        #expect(throws: ValidationError.self) { try monitor(["--no-validate", "--validate", "all"], defaultScope: .requests) }
        #expect(throws: (any Error).self) { try TrafficCheckOptions.parse(["--validate", "answers"]) }
    }

    @Test func serveReportsAClientsInvalidBodyWithoutCheckingItsOwnAnswers() async throws {
        let serve = try ServeCommand.parse(["--contracts", Self.contracts, "--port", "0", "--quiet"])
        let mock = try await serve.start().get()
        do {
            let monitor = try #require(mock.server.exchangeObserver as? ExchangeMonitor)
            #expect(!monitor.checksAnswers)
            let client = ExactHTTPClient(timeout: .seconds(120))
            let url = mock.baseURL.appendingPathComponent("api/v1/announcements")
            // Species missing: the mock refuses it like the real backend, and the request is the client's violation.
            let answer = try await client.send(method: "POST", url: url, headers: ["Content-Type": "application/json"],
                                               body: Data(#"{"sex": "MALE", "phone": "123456789", "lastSeenDate": "2025-11-18", "status": "MISSING", "locationLatitude": 1, "locationLongitude": 2}"#.utf8))
            #expect(answer.status == 400)
            let found = monitor.violationsJSON()["violations"]?.arrayValue ?? []
            #expect(!found.isEmpty)
            #expect(found.allSatisfy { $0["side"] == "client" })
            #expect(found.contains { $0["pointer"]?.stringValue?.contains("species") == true })
        } catch {
            try await mock.shutdown()
            throw error
        }
        try await mock.shutdown()
    }
    /// The backend hands the check the body it already parsed; an empty body, which the backend reads as `{}`, and a
    /// body that is not JSON must still be reported as not JSON, and a valid one must give no finding.
    @Test func theCheckReportsEmptyAndMalformedBodiesAlthoughTheBackendParsedFirst() async throws {
        let serve = try ServeCommand.parse(["--contracts", Self.contracts, "--port", "0", "--quiet"])
        let mock = try await serve.start().get()
        do {
            let monitor = try #require(mock.server.exchangeObserver as? ExchangeMonitor)
            let client = ExactHTTPClient(timeout: .seconds(120))
            let url = mock.baseURL.appendingPathComponent("api/v1/announcements")
            let valid = #"{"species": "cat", "sex": "MALE", "phone": "123456789", "lastSeenDate": "2025-11-18", "status": "MISSING", "locationLatitude": 1, "locationLongitude": 2}"#
            #expect(try await client.send(method: "POST", url: url, headers: ["Content-Type": "application/json"], body: Data(valid.utf8)).status == 201)
            let afterValid = monitor.violationsJSON()["violations"]?.arrayValue ?? []
            #expect(afterValid.isEmpty, "\(afterValid)")
            for body in ["", "{\"species\": "] {
                _ = try await client.send(method: "POST", url: url, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            }
            let found = monitor.violationsJSON()["violations"]?.arrayValue ?? []
            let notJSON = found.filter { $0.serialized().contains("not JSON") }
            #expect(notJSON.count == 2, "\(found)")
        } catch {
            try await mock.shutdown()
            throw error
        }
        try await mock.shutdown()
    }
}
