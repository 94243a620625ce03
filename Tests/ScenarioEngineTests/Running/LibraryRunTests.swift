import ClientDoubles
import ContractKit
import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// The bundled library against the embedded mock backend, with the in-process client and with the external reference client.
@Suite struct LibraryRunTests {
    static func describe(_ report: RunReport) -> String {
        report.results.filter { $0.status != .passed }.map { "\($0.file): \($0.status) \($0.failure?.message ?? $0.skipReason ?? "")" }
            .joined(separator: "\n")
    }

    @Test func everyBundledScenarioPassesWithTheReferenceClient() async throws {
        let library = try EngineTestSupport.library()
        let report = try await EngineTestSupport.run(library.scenarios, driver: PetSpotClientDriver())
        #expect(report.passed == library.scenarios.count, "\(Self.describe(report))")
        #expect(report.exitCode == 0)
    }

    /// An executable product SwiftPM built next to this test bundle (e.g. `spotcheck-client`).
    static func builtProduct(_ name: String) throws -> URL {
        try BuiltProduct.url(name)
    }

    /// The spotcheck-client executable SwiftPM built next to this test bundle.
    static func builtClient() throws -> URL { try builtProduct("spotcheck-client") }

    @Test func scenariosPassThroughTheExternalReferenceClient() async throws {
        let client = try Self.builtClient()
        let files = ["happy-path.json", "fault-step1-stall.json", "fault-step2-refuse.json", "cancel-then-continue.json",
                     "validation-phone-too-short.json", "validation-reward-121-characters.json", "details-load-error-unlimited-retry.json"]
        let scenarios = try files.map(EngineTestSupport.scenario)
        let report = try await EngineTestSupport.run(scenarios, driver: ProcessDriver(command: "'\(client.path)'"))
        #expect(report.passed == files.count, "\(Self.describe(report))")
        #expect(report.client.contains("spotcheck-client"))
    }

    @Test func failFastStopsStartingScenariosAndReportsTheRestAsSkipped() async throws {
        let files = ["fault-step1-500.json", "happy-path.json", "fault-step2-500.json", "upload-401.json"]
        let scenarios = try files.map(EngineTestSupport.scenario)
        let runner = ScenarioRunner(driver: BrokenClients.NavigatesAwayOnFailure(), targets: EmbeddedBackendProvider(contracts: try EngineTestSupport.contracts()))
        let report = await SuiteRunner(runner: runner, jobs: 1, failFast: true).run(scenarios)
        #expect(report.results.map(\.status) == [.failed, .skipped, .skipped, .skipped])
        #expect(report.results[1].skipReason?.contains("--fail-fast") == true)
        #expect(report.exitCode == 1)
    }
}
