import ContractKit
import Foundation
import MockBackend
import ScenarioEngine
import Testing
@testable import Exploration

/// The same mismatch at the same pointer, from several examples and generated requests, is one finding listing where
/// it was seen.
@Suite struct OneFindingPerDriftTests {
    /// A list the document says answers `items` (the server answers `data`), shown by two examples.
    static let listing = """
        openapi: 3.0.3
        info: {title: Pets listed, version: "1"}
        paths:
          /api/v1/announcements:
            get:
              operationId: listed
              responses:
                "200":
                  description: the list
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [items]
                        properties:
                          items: {type: array}
                      examples:
                        everything: {value: {items: []}}
                        again: {value: {items: []}}
        """

    @Test func aDriftSeenThreeTimesIsReportedOnce() async throws {
        let contracts = try DocumentSupport.load([("listed.yaml", Self.listing)])
        let results = try await DocumentSupport.withMock { target in
            let outcome = await ProviderVerifier(contracts: contracts, target: target, timeout: 120).verify(VerificationPlanner.plan(for: contracts))
            let examples = outcome.report.results.map { result in
                var result = result
                result.tags.append("examples")
                return result
            }
            let explored = await DocumentExplorer(contracts: contracts, target: target, cases: 3, timeout: .seconds(120)).explore()
            return examples + explored.results(strict: false)
        }
        // Each source fails on its own…
        #expect(results.filter { $0.status == .failed }.count == 3, "\(results.map { "\($0.name) \($0.status)" })")
        // …and the drift report says it once, naming all three.
        let report = DriftReport(results: results, contracts: contracts)
        let operation = try #require(report.operations.first { $0.id == "listed" })
        #expect(operation.findings.count == 1, "\(operation.findings)")
        #expect(operation.failures == 1)
        let line = try #require(operation.findings.first)
        #expect(line.hasPrefix("✗ body /items: expected items is required"), "\(line)")
        #expect(line.contains("seen in listed › everything (") && line.contains("; listed › again (") && line.contains("; exploration (1 generated request(s); first: GET /api/v1/announcements)"), "\(line)")
    }

    @Test func listIndicesAndFoundValuesAreOneDrift() {
        #expect(DriftKey.normalized("/data/12/photoUrl") == "/data/*/photoUrl")
        #expect(DriftKey.body(status: 200, pointer: "/data/0/photoUrl", message: "data/0/photoUrl must be a valid uri, found \"/a.png\"")
            == DriftKey.body(status: 200, pointer: "/data/3/photoUrl", message: "data/3/photoUrl must be a valid uri, found \"/b.png\""))
        #expect(DriftKey.body(status: 200, pointer: "/items", message: "items is required") == "200 /items items is required")
    }
}
