import ArgumentParser
import ContractKit
import Foundation
import MockBackend
import Testing

@testable import MockCommands
@testable import spotcheck

/// `spotcheck verify` in-process: the dry-run plan, usage errors, and a real run with its JUnit report.
@Suite struct VerifyCommandTests {
    static func run(_ arguments: [String]) async throws -> (Int32, String) {
        let command = try VerifyCommand.parse(["--contracts", RunCommandTests.contracts] + arguments)
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

    @Test(arguments: [[], ["--target", "localhost:3000"], ["--target", "ftp://x"], ["--target", "http://x", "--timeout", "0"]])
    func badUsageExits2(arguments: [String]) async throws {
        let (code, output) = try await Self.run(arguments)
        #expect(code == 2)
        #expect(output.contains("spotcheck verify: --t"))
    }

    @Test func aRunAgainstTheMockPassesAndWritesJUnitNamingContracts() async throws {
        let contracts = try ContractSet.load(from: URL(fileURLWithPath: RunCommandTests.contracts))
        let backend = try await PetSpotMockBackend.start(.init(contracts: contracts, quiet: true))
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: junit) }
        // Leave out the 20 MiB upload, which a debug build parses for many seconds (a heavy test covers it).
        let result: (Int32, String)
        do {
            result = try await Self.run(["--target", backend.baseURL.absoluteString, "--junit", junit.path, "--skip", "photo of 20 MiB"])
        } catch {
            try await backend.shutdown()
            throw error
        }
        try await backend.shutdown()
        #expect(result.0 == 0, "\(result.1)")
        #expect(result.1.contains("created 5 announcement(s) on the server"))
        #expect(result.1.contains("checks: 53 passed, 0 failed, 11 skipped"))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("classname=\"contracts.upload-photo\""))
        #expect(xml.contains("<skipped message=\"no request can make a healthy server fail"))
    }
}
