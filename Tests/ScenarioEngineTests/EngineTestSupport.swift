import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

/// Shared, read-only inputs for the engine suites.
enum EngineTestSupport {
    /// The repository's contracts.
    static func contracts() throws -> ContractSet { try bundledContracts.get() }

    /// The bundled scenario library.
    static func library() throws -> ScenarioLibrary { try bundledLibrary.get() }

    // Both are loaded once per test process: every suite starting at once and each loading them again kept the two
    // cores busy for over a minute before the first test could finish.
    private static let bundledContracts = Result { () throws(ContractLoadError) in
        try ContractSet.load(from: ContractSet.bundledDirectory)
    }
    private static let bundledLibrary = Result { () throws(ScenarioLoadError) in
        try ScenarioLibrary.load(from: ScenarioLibrary.bundledDirectory)
    }

    /// The bundled scenario stored in `file`.
    static func scenario(_ file: String) throws -> Scenario {
        let library = try library()
        return try #require(library.scenarios.first { $0.displayPath == file }, "no bundled scenario \(file)")
    }

    /// Parses a scenario document given as JSON text, with fixtures from the bundled library.
    static func parse(_ text: String, file: String = "test.json") throws -> Scenario {
        let parser = ScenarioParser(fixturesDirectory: ScenarioLibrary.bundledDirectory.appendingPathComponent("fixtures"))
        return try parser.parse(try JSONValue(parsing: text), file: URL(fileURLWithPath: "/tmp/" + file), displayPath: file)
    }

    /// The problems parsing `text` reports (empty when it parses).
    static func problems(_ text: String) -> [ScenarioProblem] {
        let parser = ScenarioParser(fixturesDirectory: ScenarioLibrary.bundledDirectory.appendingPathComponent("fixtures"))
        guard let value = try? JSONValue(parsing: text) else { return [ScenarioProblem(file: "test.json", pointer: "", message: "not JSON")] }
        do {
            _ = try parser.parse(value, file: URL(fileURLWithPath: "/tmp/test.json"), displayPath: "test.json")
            return []
        } catch {
            return error.problems
        }
    }

    /// The scenario with client timeouts of at least 2 s: tests share two cores with every other suite, and a 1 s
    /// timeout meant to end a stall must not also cut short an ordinary request on a loaded machine.
    static func relaxed(_ scenario: Scenario) -> Scenario {
        var s = scenario
        if s.client.requestTimeoutMs < 2000 { s.client = ClientSettings(requestTimeoutMs: 2000) }
        return s
    }

    /// Runs scenarios (with relaxed timeouts) with `driver` against fresh embedded backends.
    static func run(_ scenarios: [Scenario], driver: any ClientDriver, jobs: Int = 2) async throws -> RunReport {
        let scenarios = scenarios.map(relaxed)
        let runner = ScenarioRunner(driver: driver, targets: EmbeddedBackendProvider(contracts: try contracts()), seed: 1)
        return await SuiteRunner(runner: runner, jobs: jobs).run(scenarios)
    }

    /// A scratch folder removed by the caller.
    /// Runs `profile`'s own library through `driver` on the embedded backend, judged by that profile; results by file.
    static func runLibrary(of profile: ClientProfile, with driver: any ClientDriver) async throws -> [String: ScenarioResult] {
        let library = try ScenarioLibrary.load(from: profile.libraryDirectory)
        var runner = ScenarioRunner(driver: driver, targets: EmbeddedBackendProvider(contracts: try contracts()), seed: 1)
        runner.profile = profile
        let report = await SuiteRunner(runner: runner, jobs: 2).run(library.scenarios.map(relaxed))
        return Dictionary(uniqueKeysWithValues: report.results.map { ($0.file, $0) })
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-engine-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
