import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// `--target`: the same scenario files against a second mock backend treated as a real server, faults applied by a proxy.
@Suite struct ProxyTargetTests {
    /// Runs `files` through fault proxies in front of a fresh "real" server, always shutting it down.
    static func run(_ files: [String], driver: any ClientDriver = PetSpotClientDriver()) async throws -> (RunReport, [JournalEntry]) {
        let contracts = try EngineTestSupport.contracts()
        let real = try await ContractMock.start(.init(contracts: contracts, quiet: true))
        do {
            let scenarios = try files.map(EngineTestSupport.scenario).map(EngineTestSupport.relaxed)
            let runner = ScenarioRunner(driver: driver, targets: ProxyTargetProvider(upstream: real.baseURL, contracts: contracts))
            let report = await SuiteRunner(runner: runner, jobs: 2).run(scenarios)
            let seen = real.journal.entries()
            try await real.shutdown()
            return (report, seen)
        } catch {
            try? await real.shutdown()
            throw error
        }
    }

    @Test func faultScenariosPassThroughTheProxyAndTheRealServerNeverSeesTheFaults() async throws {
        let files = ["happy-path.json", "fault-step1-503.json", "fault-step2-stall.json", "fault-step1-refuse.json", "cancel-then-continue.json"]
        let (report, real) = try await Self.run(files)
        #expect(report.passed == files.count, "\(LibraryRunTests.describe(report))")
        #expect(report.target.contains("fault proxy in front of http://127.0.0.1:"))
        // The proxy answered the 503 and the refusals itself: the real server only saw requests that got through.
        #expect(!real.contains { $0.status == 503 })
        #expect(real.allSatisfy { $0.fault == nil })
        #expect(real.filter { $0.contract == "uploadPhoto" && $0.status == 201 }.count == files.count)
    }

    @Test func scenariosNeedingBackendStateAreSkippedWithTheReason() async throws {
        let (report, real) = try await Self.run(["details-found-phone-only.json", "happy-path-stores-one-announcement.json"])
        #expect(report.results.map(\.status) == [.skipped, .skipped])
        #expect(report.results[0].skipReason?.contains("fixtures \"pets.json\"") == true)
        #expect(report.results[1].skipReason?.contains("counts the records") == true)
        #expect(report.exitCode == 0)
        #expect(real.isEmpty)
    }

    @Test func aBrokenClientStillFailsThroughTheProxy() async throws {
        struct MapsEveryErrorToNoConnection: ClientDriver {
            var description: String { "broken: maps every error to no connection" }
            func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
                Rewriting(inner: try await PetSpotClientDriver().open(context)) { _, observation in
                    var o = observation
                    if o.alert != nil { o.alert = ObservedAlert(kind: "noConnection", message: AlertExpectation.standardMessages["noConnection"] ?? "") }
                    return o
                }
            }
        }
        let (report, _) = try await Self.run(["fault-step1-503.json"], driver: MapsEveryErrorToNoConnection())
        #expect(report.results.first?.status == .failed)
        #expect(report.results.first?.failure?.message.contains("the networking layer reported HTTP status 503, and the seeds require the generic alert") == true,
                "\(report.results.first?.failure?.message ?? "")")
    }

    /// Starts `spotcheck serve --port 0` (built next to this test bundle) and reads the URL it prints.
    static func startServeProcess() throws -> (Process, URL) {
        let binary = try LibraryRunTests.builtProduct("spotcheck")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--quiet"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        let handle = output.fileHandleForReading
        while !text.contains("\n") {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: "http://[^\\s]+", options: .regularExpression), let url = URL(string: String(text[range])) else {
            process.terminate()
            throw DriverError("spotcheck serve printed no URL: \(text)")
        }
        return (process, url)
    }

    @Test func runsAgainstASecondMockBackendProcessTreatedAsARealServer() async throws {
        let (server, url) = try Self.startServeProcess()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let contracts = try EngineTestSupport.contracts()
        let files = ["happy-path.json", "fault-step2-503.json", "upload-404.json", "backend-photo-upload-auth.json", "details-found-phone-only.json"]
        let scenarios = try files.map(EngineTestSupport.scenario).map(EngineTestSupport.relaxed)
        let runner = ScenarioRunner(driver: PetSpotClientDriver(), targets: ProxyTargetProvider(upstream: url, contracts: contracts))
        let report = await SuiteRunner(runner: runner, jobs: 2).run(scenarios)
        #expect(report.results.map(\.status) == [.passed, .passed, .passed, .passed, .skipped], "\(LibraryRunTests.describe(report))")
    }
}
