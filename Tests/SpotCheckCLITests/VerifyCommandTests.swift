import ArgumentParser
import ContractKit
import Exploration
import Foundation
import ContractModel
import MockBackend
import Testing

@testable import MockCommands
@testable import spotcheck

/// `spotcheck verify` in-process: the dry-run plan, usage errors, and a real run with its JUnit report.
@Suite struct VerifyCommandTests {
    static func run(_ arguments: [String]) async throws -> (Int32, String) {
        let command = try VerifyCommand.parse(["--timeout", "120", "--contracts", RunCommandTests.contracts] + arguments)
        let lines = RunCommandTests.Lines()
        let code = await command.execute(print: { lines.add($0) })
        return (code, lines.text)
    }

    @Test func dryRunPrintsThePlanAndSendsNothing() async throws {
        let (code, output) = try await Self.run(["--dry-run"])
        #expect(code == 0)
        #expect(output.hasPrefix("1. createAnnouncement › full report created: POST /api/v1/announcements → 201"))
        #expect(output.contains("uploadPhoto › wrong password: POST /api/v1/announcements/{id}/photos → 403 UNAUTHORIZED"))
        #expect(output.contains("nothing was sent"))
    }

    /// A recorded baseline that cannot be used is refused before anything is sent, naming the file and what is wrong.
    @Test func aBaselineRecordingThatDoesNotFitExits2NamingWhy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.json")
        try Data(#"{"format": "spotcheck-baseline-recording/1", "seed": "x"}"#.utf8).write(to: broken)
        let seven = folder.appendingPathComponent("seven.json")
        try Data(#"{"format": "spotcheck-baseline-recording/1", "seed": "7", "cases": null, "walks": true, "server": "http://old", "answers": []}"#.utf8)
            .write(to: seven)
        let cases: [([String], String)] = [
            (["--baseline", folder.appendingPathComponent("none.json").path], "no such file"),
            (["--baseline", broken.path], "\(broken.path):/seed: expected"),
            (["--baseline", seven.path, "--seed", "8"], "recorded with --seed 7, not 8"),
            (["--baseline", seven.path, "--record-baseline", folder.appendingPathComponent("new.json").path], "takes no --baseline"),
        ]
        for (arguments, expected) in cases {
            let (code, output) = try await Self.run(["--target", "http://127.0.0.1:9"] + arguments)
            #expect(code == 2, "\(arguments): \(output)")
            #expect(output.contains(expected), "\(arguments): \(output)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("new.json").path))
    }

    @Test(arguments: [[], ["--target", "localhost:3000"], ["--target", "ftp://x"], ["--target", "http://x", "--timeout", "0"]])
    func badUsageExits2(arguments: [String]) async throws {
        let (code, output) = try await Self.run(arguments)
        #expect(code == 2)
        #expect(output.contains("spotcheck verify: --t"))
    }

    static let savedWalk = #"{"spotcheckWalk": 1, "route": "deleteAnnouncement", "seed": "24", "model": "404 NOT_FOUND", "server": "204", "#
        + #""steps": [{"step": 0, "contract": "createAnnouncement", "do": "create"}, {"step": 1, "contract": "deleteAnnouncement", "do": "delete", "record": 0}]}"#

    @Test func aBrokenWalkFileExits2NamingFileAndPointer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.json")
        try Data(Self.savedWalk.replacingOccurrences(of: #""do": "delete""#, with: #""do": "remove""#).utf8).write(to: broken)
        let (code, output) = try await Self.run(["--target", "http://127.0.0.1:9", "--replay-walk", broken.path])
        #expect(code == 2)
        #expect(output.contains("--replay-walk: \(broken.path) at /steps/1/do: expected create, read"), "\(output)")
        let (missingCode, missing) = try await Self.run(["--target", "http://127.0.0.1:9", "--replay-walk", folder.appendingPathComponent("none.json").path])
        #expect(missingCode == 2)
        #expect(missing.contains("--replay-walk: cannot read"), "\(missing)")
    }

    @Test func savedWalksTakeTheNextFreeNumberAndNeverOverwrite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("walks-\(UUID().uuidString)/new")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let walk = try WalkCase.parse(Data(Self.savedWalk.utf8), file: "saved.json")
        let lines = RunCommandTests.Lines()
        #expect(VerifyCommand.save([walk, walk], into: folder.path, print: { lines.add($0) }) == nil)
        let first = folder.appendingPathComponent("walk-deleteAnnouncement-1.json")
        let second = folder.appendingPathComponent("walk-deleteAnnouncement-2.json")
        #expect(try WalkCase.parse(Data(contentsOf: first), file: first.path) == walk)
        #expect(try WalkCase.parse(Data(contentsOf: second), file: second.path) == walk)
        #expect(lines.text.contains("replay it with --replay-walk \(first.path)"))
    }

    @Test func aRunAgainstTheMockPassesAndWritesJUnitNamingContracts() async throws {
        let contracts = try ContractSet.load(from: URL(fileURLWithPath: RunCommandTests.contracts))
        let backend = try await ContractMock.start(.init(contracts: contracts, quiet: true))
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: junit) }
        // Leave out the 20 MiB upload, which a debug build parses for many seconds (a heavy test covers it).
        let result: (Int32, String)
        do {
            result = try await Self.run(["--target", backend.baseURL.absoluteString, "--junit", junit.path, "--skip", "photo of 20 MiB", "--no-explore"])
        } catch {
            try await backend.shutdown()
            throw error
        }
        try await backend.shutdown()
        #expect(result.0 == 0, "\(result.1)")
        #expect(result.1.contains("created 5 record(s) on the server"))
        #expect(result.1.contains("checks: 54 passed, 0 failed, 11 skipped"))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("classname=\"contracts.upload-photo\""))
        #expect(xml.contains("<skipped message=\"no request can make a healthy server fail"))
    }

    @Test(arguments: [["--cases", "0"], ["--time", "soon"], ["--time", "0s"]])
    func badExplorationBudgetExits2(arguments: [String]) async throws {
        let (code, output) = try await Self.run(["--target", "http://127.0.0.1:9"] + arguments)
        #expect(code == 2)
        #expect(output.contains("spotcheck verify: --"), "\(output)")
    }

    /// Exploration against the mock with its known defects: the seed is printed, the reproduced defects are known
    /// defects (exit 0), and the JSON report tells exploration's results from the examples'.
    @Test func exploringAServerLikeTheRealOneTagsEachResultBySource() async throws {
        var options = ContractMock.Options(contracts: try ContractSet.load(from: URL(fileURLWithPath: RunCommandTests.contracts)), quiet: true)
        options.reproduceKnownDefects = true
        let backend = try await ContractMock.start(options)
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }
        let result: (Int32, String)
        do {
            result = try await Self.run(["--target", backend.baseURL.absoluteString, "--json", json.path, "--skip", "photo of 20 MiB",
                                         "--seed", "9", "--cases", "400", "--admin-token", "tajnehasloadmina", "--strict"])
        } catch {
            try await backend.shutdown()
            throw error
        }
        let left = await backend.recordCount()
        try await backend.shutdown()
        #expect(result.0 == 0, "\(result.1)")
        #expect(result.1.contains("explored with seed 9: 400 generated requests"))
        #expect(result.1.contains("no difference from the model"))
        #expect(result.1.contains("⚠ known defect json-parser-malformed-500"))
        // Exploration deleted its own announcements; what the examples created and did not delete stays.
        let examplesLeft = result.1.components(separatedBy: "created ").dropFirst().first?.split(separator: " ").first.flatMap { Int($0) }
        #expect(result.1.contains("record(s) exploration created") && result.1.contains("  deleted the "))
        #expect(examplesLeft.map { left <= $0 } == true, "\(left) left, \(result.1)")
        let report = try JSONValue(parsing: Data(contentsOf: json))
        let results = report["results"]?.arrayValue ?? []
        let explored = results.filter { $0["tags"]?.arrayValue?.contains("exploration") == true }
        let examples = results.filter { $0["tags"]?.arrayValue?.contains("examples") == true }
        #expect(!explored.isEmpty && explored.allSatisfy { $0["name"]?.stringValue?.hasPrefix("explore › ") == true })
        // Every difference is a known defect; the listing of stated rules rides along as information, with what 400 cases left out.
        let coverage = try #require(explored.first { $0["name"] == "explore › stated rules" })
        #expect(coverage["status"] == "passed")
        #expect(coverage["notes"]?.arrayValue?.contains { $0.stringValue?.hasPrefix("not exercised: ") == true } == true)
        #expect(explored.filter { $0["name"] != "explore › stated rules" }.allSatisfy { $0["status"] == "knownDefect" })
        #expect(examples.count + explored.count == results.count)
    }
}
