import ArgumentParser
import Foundation
import Testing

@testable import MockCommands
@testable import spotcheck

/// `spotcheck explore` end to end in-process: exit codes, the report, report files.
@Suite struct ExploreCommandTests {
    static func run(_ arguments: [String]) async throws -> (Int32, String) {
        let command = try ExploreCommand.parse(["--contracts", RunCommandTests.contracts] + arguments)
        let lines = RunCommandTests.Lines()
        let code = await command.execute(print: { lines.add($0) })
        return (code, lines.text)
    }

    @Test func aCorrectClientExitsZeroPrintsSeedSessionsAndRulesAndWritesReports() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-explore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let junit = dir.appendingPathComponent("e.xml").path
        let json = dir.appendingPathComponent("e.json").path
        let (code, output) = try await Self.run(["--seed", "9", "--runs", "12", "--jobs", "2", "--junit", junit, "--json", json])
        #expect(code == 0, "\(output)")
        #expect(output.contains("seed 9, 12 sessions"))
        #expect(output.contains("inputs-survive"))
        #expect(output.contains("no counterexample"))
        let report = try String(contentsOfFile: json, encoding: .utf8)
        #expect(report.contains("\"sessions\": 12"))
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("<testsuite name=\"spotcheck explore seed 9\""))
    }

    /// The default profile explores as without `--profile`; the found flow's explores its own form (its sessions judged
    /// by its rules); a profile whose failures show a toast with no Try Again is refused with what the model lacks.
    @Test func eachProfileWithAlertsExploresAndAToastProfileIsRefusedWithWhy() async throws {
        let (code, output) = try await Self.run(["--profile", "ios-missing-pet", "--runs", "4", "--jobs", "1"])
        #expect(code == 0, "\(output)")
        #expect(output.contains("no counterexample"), "\(output)")
        let (found, foundOutput) = try await Self.run(["--profile", "ios-found-pet", "--runs", "4"])
        #expect(found == 0, "\(foundOutput)")
        #expect(foundOutput.contains("profile ios-found-pet") && foundOutput.contains("no counterexample"), "\(foundOutput)")
        let (web, webOutput) = try await Self.run(["--profile", "web-missing-pet", "--runs", "4"])
        #expect(web == 2, "\(webOutput)")
        #expect(webOutput.contains("web-missing-pet") && webOutput.contains("toast"), "\(webOutput)")
        #expect(webOutput.contains("spotcheck run --profile web-missing-pet"), "\(webOutput)")
        let (missing, missingOutput) = try await Self.run(["--profile", "no-such-profile", "--runs", "4"])
        #expect(missing == 2, "\(missingOutput)")
        #expect(missingOutput.contains("no-such-profile"), "\(missingOutput)")
    }

    @Test(arguments: [
        ["--runs", "0"], ["--seed", "x"], ["--time", "soon"], ["--runs", "5", "--time", "5s"], ["--jobs", "0"], ["--client", " "],
    ])
    func badUsageExitsTwo(_ arguments: [String]) async throws {
        let (code, output) = try await Self.run(arguments)
        #expect(code == 2, "\(output)")
        #expect(output.hasPrefix("spotcheck explore: "))
    }
}
