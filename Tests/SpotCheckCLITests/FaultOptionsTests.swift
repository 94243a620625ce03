import ArgumentParser
import Foundation
import ContractModel
import MockBackend
import Testing

@testable import MockCommands
@testable import spotcheck

@Suite struct FaultOptionsTests {
    @Test func shortcutsFilePresetAndOfflineInFirstMatchOrder() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("faults-\(UUID().uuidString).json")
        try Data(#"{"rules": [{"name": "from file", "fault": {"kind": "reset"}}]}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let options = try FaultOptions.parse(["--fault", "uploadPhoto:503@2", "--fault", "createAnnouncement:stall",
                                              "--faults", file.path, "--preset", "slow", "--offline"])
        let rules = try options.rules(seed: 1)
        #expect(rules.map(\.name) == ["--fault uploadPhoto:503@2", "--fault createAnnouncement:stall", "from file", "slow: +1500 ms", "offline"])
    }

    @Test func noOptionsMeansNoRules() throws {
        #expect(try FaultOptions.parse([]).rules().isEmpty)
    }

    @Test func problemsNameTheirSource() throws {
        #expect(throws: FaultRuleError.self) { try FaultOptions.parse(["--fault", "uploadPhoto:explode"]).rules() }
        let options = try FaultOptions.parse(["--faults", "/nonexistent/faults.json"])
        do {
            _ = try options.rules()
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.file == "/nonexistent/faults.json")
        }
        #expect(throws: (any Error).self) { try FaultOptions.parse(["--preset", "chaotic"]) }
    }

    @Test func serveTakesItsRulesFromTheFaultOptions() async throws {
        let contracts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("contracts").path
        let bad = try ServeCommand.parse(["--port", "0", "--contracts", contracts, "--fault", "uploadPhoto:explode"])
        guard case .failure(let failure) = await bad.start() else {
            Issue.record("a bad --fault started the server")
            return
        }
        #expect(failure.outcome.exitCode == 2)
        let good = try ServeCommand.parse(["--port", "0", "--contracts", contracts, "--quiet", "--fault", "uploadPhoto:503@2"])
        let mock = try await good.start().get()
        #expect(mock.faults.rules.map(\.name) == ["--fault uploadPhoto:503@2"])
        try await mock.shutdown()
    }
}
