import ArgumentParser
import Foundation
import Testing

@testable import MockCommands
@testable import spotcheck

/// `spotcheck explore --shard i/n` on several runners, combined by `spotcheck merge-reports`.
@Suite struct MergeReportsCommandTests {
    @Test func shardsSplitTheBudgetAndMergeIntoOneReport() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String] = []
        for i in 1...2 {
            let json = dir.appendingPathComponent("shard\(i).json").path
            let junit = dir.appendingPathComponent("shard\(i).xml").path
            let (code, output) = try await ExploreCommandTests.run(["--seed", "3", "--runs", "6", "--jobs", "2", "--shard", "\(i)/2", "--json", json, "--junit", junit])
            #expect(code == 0, "\(output)")
            #expect(output.contains("seed 3 (shard \(i)/2 of the seeded budget), 3 sessions"), "\(output)")
            #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("<testsuite name=\"spotcheck explore seed 3 shard \(i) of 2\""))
            files.append(json)
        }
        let merged = dir.appendingPathComponent("merged.json").path
        let command = try MergeReportsCommand.parse(files + ["--json", merged])
        let lines = RunCommandTests.Lines()
        let code = command.execute(print: { lines.add($0) })
        #expect(code == 0, "\(lines.text)")
        #expect(lines.text.contains("seed 3, 6 sessions"), "\(lines.text)")
        #expect(try String(contentsOfFile: merged, encoding: .utf8).contains("\"sessions\": 6"))
    }

    @Test func anUnreadableReportExitsTwo() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-notareport-\(UUID().uuidString).json")
        try Data("{\"x\": 1}".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let lines = RunCommandTests.Lines()
        #expect(try MergeReportsCommand.parse([file.path]).execute(print: { lines.add($0) }) == 2)
        #expect(lines.text.contains("is not a report of spotcheck explore --json"))
        let (bad, _) = try await ExploreCommandTests.run(["--shard", "3/2"])
        #expect(bad == 2)
    }
}
