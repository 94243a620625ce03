import Foundation
import ContractModel
import MockBackend
import Testing

@testable import MockCommands
@testable import spotcheck

/// `serve --data-dir` and the dashboard line of the banner.
@Suite struct ServeDataDirTests {
    private let contracts = ServeCommandTests.repository.appendingPathComponent("contracts").path

    @Test func theBannerNamesTheDashboardOnTheAdminPortWhenThereIsOne() async throws {
        for (extra, expectAdmin) in [(["--admin-port", "0"], true), ([], false)] {
            let mock = try await ServeCommand.parse(["--contracts", contracts, "--port", "0", "--quiet"] + extra).start().get()
            let banner = ServeCommand.banner(for: mock)
            let port = mock.adminBaseURL?.port ?? mock.port
            try await mock.shutdown()
            #expect(banner.contains("Dashboard on http://127.0.0.1:\(port)/__spotcheck/"))
            #expect(banner.contains("--admin-port") != expectAdmin)
        }
    }

    @Test func aForeignDataDirIsAnExitTwoErrorAndStaysUntouched() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-foreign-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let result = await (try ServeCommand.parse(["--contracts", contracts, "--port", "0", "--quiet", "--data-dir", directory.path])).start()
        guard case .failure(let failure) = result else {
            if case .success(let mock) = result { try await mock.shutdown() }
            Issue.record("serve started on a foreign data dir")
            return
        }
        #expect(failure.outcome.exitCode == 2)
        #expect(failure.outcome.output.contains("is not a SpotCheck data directory"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"])
    }

    @Test func theDataDirKeepsAnnouncementsAcrossStarts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-data-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["--contracts", contracts, "--port", "0", "--quiet", "--data-dir", directory.path]
        let first = try await ServeCommand.parse(arguments).start().get()
        first.backend.store.load(try RecordFixture.load(from: RecordFixture.bundledFile))
        try await first.backend.store.waitUntilDurable()
        let count = await first.recordCount()
        try await first.shutdown()
        let second = try await ServeCommand.parse(arguments).start().get()
        let restored = await second.recordCount()
        try await second.shutdown()
        #expect(count > 0)
        #expect(restored == count)
    }

    @Test func aDamagedRecordIsAnExitTwoErrorNamingFileLineAndOffsetAndTheFileStaysByteForByte() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-damaged-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["--contracts", contracts, "--port", "0", "--quiet", "--data-dir", directory.path]
        let first = try await ServeCommand.parse(arguments).start().get()
        first.backend.store.load(try RecordFixture.load(from: RecordFixture.bundledFile))
        try await first.backend.store.waitUntilDurable()
        try await first.shutdown()
        // The log is named after the contracts' first collection.
        let log = directory.appendingPathComponent("announcements.log")
        var bytes = try Data(contentsOf: log)
        let secondLine = try #require(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1
        bytes[secondLine + 10] ^= 0x01
        try bytes.write(to: log)
        let result = await (try ServeCommand.parse(arguments)).start()
        guard case .failure(let failure) = result else {
            if case .success(let mock) = result { try await mock.shutdown() }
            Issue.record("serve started on a damaged data dir")
            return
        }
        #expect(failure.outcome.exitCode == 2)
        #expect(failure.outcome.output.contains("\(log.path): line 2 (byte offset \(secondLine)) is damaged"))
        #expect(try Data(contentsOf: log) == bytes)
    }
}
