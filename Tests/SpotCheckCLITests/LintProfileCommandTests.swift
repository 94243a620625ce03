import Foundation
import Testing
@testable import MockCommands
@testable import spotcheck

/// `spotcheck lint --profile P`: a shipped profile is clean; a profile the contracts make impossible exits 2 with its
/// problems at file and pointer.
@Suite struct LintProfileCommandTests {
    static let contracts = LintCommandTests.repository.appendingPathComponent("contracts").path

    @Test func everyShippedProfileIsClean() {
        for name in ["ios-missing-pet", "ios-found-pet", "web-missing-pet"] {
            let outcome = LintCommand.execute(directory: Self.contracts, profile: name)
            #expect(outcome.exitCode == 0, "\(name): \(outcome.output)")
            #expect(outcome.output.contains("\(name)/profile.json: client profile \(name), no problems"), "\(outcome.output)")
        }
    }

    @Test func aStatusTheContractsRefuseExitsTwoAtItsPointer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-lint-profile-\(UUID().uuidString)/lost-pet", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let shipped = LintCommandTests.repository.appendingPathComponent("scenarios/ios-found-pet/profile.json")
        let text = try String(contentsOf: shipped, encoding: .utf8).replacingOccurrences(of: "\"status\": \"FOUND\"", with: "\"status\": \"LOST\"")
        try text.write(to: folder.appendingPathComponent("profile.json"), atomically: true, encoding: .utf8)
        let outcome = LintCommand.execute(directory: Self.contracts, profile: folder.path)
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.contains("lost-pet/profile.json:/flow/report/status: the status \"LOST\" is not one createAnnouncement's request schema allows"), "\(outcome.output)")
    }
}
