import ArgumentParser
import ContractKit
import Foundation
import Testing

@testable import MockCommands
@testable import spotcheck

/// `spotcheck run` end to end in-process: selection, exit codes, report files.
@Suite struct RunCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let scenarios = repository.appendingPathComponent("scenarios").path
    static let contracts = repository.appendingPathComponent("contracts").path

    /// Collects printed lines from parallel scenarios.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var text: String { lock.withLock { lines.joined(separator: "\n") } }
    }

    static func run(_ arguments: [String]) async throws -> (Int32, String) {
        let command = try RunCommand.parse(["--scenarios", scenarios, "--contracts", contracts] + arguments)
        let lines = Lines()
        let code = await command.execute(print: { lines.add($0) })
        return (code, lines.text)
    }

    @Test func aPassingSelectionExitsZeroAndWritesJUnitAndJSON() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let junit = dir.appendingPathComponent("r.xml").path
        let json = dir.appendingPathComponent("r.json").path
        let (code, output) = try await Self.run(["--tag", "validation", "--junit", junit, "--json", json])
        #expect(code == 0, "\(output)")
        #expect(output.contains("PASS"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuites name=\"spotcheck\""))
        #expect(xml.contains("failures=\"0\""))
        let report = try JSONValue(parsing: try Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(report["summary"]?["failed"] == 0)
        #expect((report["summary"]?["passed"]?.intValue ?? 0) >= 4)
    }

    @Test func badUsageExitsTwoWithAMessage() async throws {
        for arguments in [["--shard", "0/2"], ["--jobs", "many"], ["--seed=-1"], ["--target", "localhost"]] {
            let (code, output) = try await Self.run(arguments)
            #expect(code == 2, "\(arguments)")
            #expect(output.hasPrefix("spotcheck run: --"), "\(output)")
        }
    }

    @Test func aBadScenarioFileExitsTwoBeforeRunningAnything() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"name": "x", "report": {"phone": "1234567"}, "steps": [{"action": "submit", "expect": {"outcome": "sucess"}}]}"#.utf8)
            .write(to: dir.appendingPathComponent("typo.json"))
        let command = try RunCommand.parse(["--scenarios", dir.path, "--contracts", Self.contracts])
        let lines = Lines()
        let code = await command.execute(print: { lines.add($0) })
        #expect(code == 2)
        #expect(lines.text.contains("typo.json:/steps/0/expect/outcome: unknown outcome \"sucess\""))
        #expect(!lines.text.contains("PASS") && !lines.text.contains("FAIL"))
    }

    @Test func aFailingScenarioExitsOne() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: Self.scenarios + "/fixtures/photo.jpg", toPath: dir.appendingPathComponent("fixtures/photo.jpg").path)
        let doc = #"""
            {"name": "expects offline from a 503", "report": {"species": "dog", "sex": "MALE", "lastSeenDate": "2025-11-01",
              "locationLatitude": 52.2, "locationLongitude": 21.0, "phone": "+48 123 456 789", "email": "a@b.co", "photo": {"file": "photo.jpg"}},
             "faults": [{"contract": "createAnnouncement", "calls": [1], "fault": {"kind": "status", "status": 503}}],
             "steps": [{"action": "submit", "expect": {"outcome": "failure", "alert": {"kind": "noConnection"}}}]}
            """#
        try Data(doc.utf8).write(to: dir.appendingPathComponent("wrong.json"))
        let command = try RunCommand.parse(["--scenarios", dir.path, "--contracts", Self.contracts])
        let lines = Lines()
        let code = await command.execute(print: { lines.add($0) })
        #expect(code == 1)
        #expect(lines.text.contains("alert cause: the networking layer reported HTTP status 503, for which the seeds allow generic"), "\(lines.text)")
        #expect(lines.text.contains("#1 POST /api/v1/announcements (createAnnouncement) → 503 [fault status]"))
    }

    @Test func listShowsTheShardWithoutRunning() async throws {
        let (first, out1) = try await Self.run(["--list", "--shard", "1/2"])
        let (second, out2) = try await Self.run(["--list", "--shard", "2/2"])
        #expect(first == 0 && second == 0)
        let names1 = Set(out1.split(separator: "\n").dropLast().map(String.init))
        let names2 = Set(out2.split(separator: "\n").dropLast().map(String.init))
        #expect(names1.isDisjoint(with: names2))
        #expect(!names1.isEmpty && !names2.isEmpty)
    }
}
