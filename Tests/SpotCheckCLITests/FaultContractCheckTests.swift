import ArgumentParser
import Foundation
import ContractModel
import MockBackend
import Testing

@testable import MockCommands
@testable import spotcheck

/// A fault rule naming a contract that does not exist stops `serve` and `proxy` with exit 2, from any rule source.
@Suite struct FaultContractCheckTests {
    static let contracts = ServeCommandTests.repository.appendingPathComponent("contracts").path

    private func startFailure(_ arguments: [String]) async throws -> CommandOutcome? {
        let command = try ServeCommand.parse(["--port", "0", "--contracts", Self.contracts, "--quiet"] + arguments)
        switch await command.start() {
        case .success(let mock):
            try await mock.shutdown()
            return nil
        case .failure(let failure):
            return failure.outcome
        }
    }

    @Test func aMisspeltShortcutExits2NamingTheIdAndTheClosestOne() async throws {
        let outcome = try #require(try await startFailure(["--fault", "getAnnouncment:503"]))
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.contains("\"getAnnouncment\""))
        #expect(outcome.output.contains("did you mean \"getAnnouncement\"?"))
        #expect(outcome.output.contains("--fault getAnnouncment:503"))
    }

    @Test func aMisspeltRuleInAFileExits2NamingTheFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("faults-\(UUID().uuidString).json")
        try Data(#"{"rules": [{"contract": "uploadPhoto", "fault": {"kind": "status", "status": 503}}, {"name": "typo", "contract": "upladPhoto", "fault": {"kind": "reset"}}]}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try #require(try await startFailure(["--faults", file.path]))
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.contains(file.path))
        #expect(outcome.output.contains("rule 1 (\"typo\")"))
        #expect(outcome.output.contains("did you mean \"uploadPhoto\"?"))
    }

    @Test func knownIdsWildcardsAndPresetsStart() async throws {
        #expect(try await startFailure(["--fault", "getAnnouncement:503", "--fault", "*:delay:10", "--preset", "flaky"]) == nil)
    }

    @Test func everySourceIsChecked() throws {
        let known = ["getAnnouncement", "uploadPhoto"]
        #expect(throws: FaultRuleError.self) { try FaultOptions.parse(["--fault", "nope:503"]).rules(knownContracts: known) }
        // Presets name real contracts; against a folder without them they are refused too rather than never firing.
        for preset in FaultPreset.allCases {
            let rules = preset.rules(seed: 1)
            if rules.contains(where: { $0.selector.contract != nil }) {
                #expect(throws: FaultRuleError.self) { try FaultOptions.parse(["--preset", preset.rawValue]).rules(knownContracts: []) }
            }
        }
        #expect(try FaultOptions.parse(["--fault", "uploadPhoto:503"]).rules(knownContracts: known).count == 1)
    }
}
