import ArgumentParser
import Foundation
import ContractModel
import MockBackend
import Testing

@testable import MockCommands
@testable import spotcheck

@Suite struct ServeCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func defaultsBindLoopbackOnTheRealBackendsPort() throws {
        let command = try ServeCommand.parse([])
        #expect(command.listen.host == "127.0.0.1")
        #expect(command.listen.port == nil)
        #expect(ServeCommand.defaultPort == 3000)
        #expect(!command.withKnownDefects)
        #expect(command.seed == nil)
        #expect(command.listen.journalLimit == 1000)
        #expect(!command.listen.quiet)
        #expect(command.storeLimit == ServeCommand.defaultStoreLimit)
    }

    @Test func theStoreLimitReachesTheStoreAndZeroKeepsAll() async throws {
        let contracts = Self.repository.appendingPathComponent("contracts").path
        for (flag, expected) in [("5", Optional(5)), ("0", nil)] {
            let mock = try await ServeCommand.parse(["--port", "0", "--contracts", contracts, "--quiet", "--store-limit", flag]).start().get()
            let limit = mock.backend.store.limit
            try await mock.shutdown()
            #expect(limit == expected)
        }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--store-limit", "-1"]) }
    }

    @Test func beyondLoopbackAnAdminTokenMustBeGiven() throws {
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--host", "0.0.0.0"]) }
        let given = try ServeCommand.parse(["--host", "0.0.0.0", "--admin-token", "s3cret", "--with-known-defects"])
        #expect(given.listen.adminToken == "s3cret")
        #expect(given.withKnownDefects)
        #expect(try ServeCommand.parse(["--host", "localhost"]).listen.adminToken == nil)
    }

    @Test func loopbackIsJudgedFromWhatTheHostResolvesTo() throws {
        // Reads like loopback, resolves nowhere: a usage error naming the host, with or without a token.
        for arguments in [["--host", "127.nonexistent.invalid"], ["--host", "127.nonexistent.invalid", "--admin-token", "t"]] {
            do {
                _ = try ServeCommand.parse(arguments)
                Issue.record("\(arguments) was accepted")
            } catch {
                #expect(ServeCommand.message(for: error).contains("127.nonexistent.invalid does not resolve"))
            }
        }
        #expect(throws: (any Error).self) { try ProxyCommand.parse(["--target", "http://localhost:1", "--host", "127.nonexistent.invalid"]) }
        #expect(try ServeCommand.parse(["--host", "127.0.0.1", "--allow-host", "devbox.lan", "--allow-host", "*.dev.test"]).listen.allowHost == ["devbox.lan", "*.dev.test"])
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--allow-host", "devbox.lan:8080"]) }
    }

    @Test func badNumbersAreUsageErrors() {
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--port", "70000"]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--journal-limit", "0"]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--seed", "-1"]) }
    }

    @Test func startsWithFixturesAndPrintsTheBoundURL() async throws {
        let fixtures = Self.repository.appendingPathComponent("contracts/fixtures/pets.json").path
        let contracts = Self.repository.appendingPathComponent("contracts").path
        let command = try ServeCommand.parse(["--port", "0", "--seed", "3", "--fixtures", fixtures, "--contracts", contracts, "--quiet", "--admin-port", "0", "--admin-token", "t"])
        let mock = try await command.start().get()
        do {
            let banner = ServeCommand.banner(for: mock)
            #expect(banner.hasPrefix("Listening on http://127.0.0.1:\(mock.port)\n"))
            #expect(banner.contains("Admin API on http://127.0.0.1:"))
            #expect(await mock.recordCount() == 6)
            try await mock.shutdown()
        } catch {
            try? await mock.shutdown()
            throw error
        }
    }

    @Test func faultFlagsBecomeTheMocksStartingRules() async throws {
        let contracts = Self.repository.appendingPathComponent("contracts").path
        let command = try ServeCommand.parse(["--port", "0", "--contracts", contracts, "--quiet", "--fault", "uploadPhoto:503@2", "--seed", "1"])
        let mock = try await command.start().get()
        let count = mock.faults.rules.count
        try await mock.shutdown()
        #expect(count == 1)
    }

    @Test func aBadFaultShortcutExitsTwo() async throws {
        let contracts = Self.repository.appendingPathComponent("contracts").path
        let command = try ServeCommand.parse(["--port", "0", "--contracts", contracts, "--quiet", "--fault", "uploadPhoto:explode"])
        switch await command.start() {
        case .success(let mock):
            try await mock.shutdown()
            Issue.record("expected the shortcut to be rejected")
        case .failure(let failure):
            #expect(failure.outcome.exitCode == 2)
            #expect(failure.outcome.output.hasPrefix("spotcheck serve: "))
        }
    }

    @Test func aBrokenFixturesFileExitsTwoNamingTheFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pets.json")
        try Data(#"{"announcements": [{"id": "nope"}]}"#.utf8).write(to: file)
        let contracts = Self.repository.appendingPathComponent("contracts").path
        let command = try ServeCommand.parse(["--port", "0", "--fixtures", file.path, "--contracts", contracts, "--quiet"])
        switch await command.start() {
        case .success(let mock):
            try await mock.shutdown()
            Issue.record("expected the fixtures to be rejected")
        case .failure(let failure):
            #expect(failure.outcome.exitCode == 2)
            #expect(failure.outcome.output.contains("pets.json: /announcements/0/id"))
        }
    }
}
