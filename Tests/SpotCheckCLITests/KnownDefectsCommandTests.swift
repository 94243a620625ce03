import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing

@testable import MockCommands
@testable import spotcheck

/// `verify` and `run --target` against servers that behave like the real backend, drift, or are fixed.
@Suite struct KnownDefectsCommandTests {
    static let knownIDs = ["json-parser-malformed-500", "json-parser-root-not-container-500", "json-parser-unsupported-charset-500",
                           "upload-other-file-part-500", "upload-malformed-multipart-500"]

    /// A mock started as `serve` starts it (127.0.0.1, port 0), always shut down.
    static func withMock<T>(knownDefects: Bool, drift: Set<ContractDrift> = [], _ body: (URL) async throws -> T) async throws -> T {
        var options = ContractMock.Options(contracts: try ContractSet.load(from: URL(fileURLWithPath: RunCommandTests.contracts)), quiet: true)
        options.reproduceKnownDefects = knownDefects
        options.drift = drift
        let mock = try await ContractMock.start(options)
        do {
            let result = try await body(mock.baseURL)
            try await mock.shutdown()
            return result
        } catch {
            try? await mock.shutdown()
            throw error
        }
    }

    /// The 20 MiB upload is left out: a debug build parses it for many seconds, and other tests cover it. These tests
    /// are about the examples' verdicts; exploration has its own (`VerifyCommandTests`, `ExplorationTests`).
    static func verify(_ target: URL, _ extra: [String] = []) async throws -> (Int32, String) {
        try await VerifyCommandTests.run(["--target", target.absoluteString, "--skip", "photo of 20 MiB", "--admin-token", "tajnehasloadmina",
                                          "--no-explore"] + extra)
    }

    /// fb9f56a's body parser answers 500 on the users endpoints too: the service-wide entries cover them, so a full
    /// default verify (examples and exploration) of a server like that backend is clean.
    @Test func theNewerBackendsParserDefectsOnTheUsersEndpointsAreKnownDefects() async throws {
        let folder = URL(fileURLWithPath: RunCommandTests.contracts).appendingPathComponent("versions/2026-01-12")
        var options = ContractMock.Options(contracts: try ContractSet.load(from: folder), quiet: true)
        options.reproduceKnownDefects = true
        let mock = try await ContractMock.start(options)
        let result: (Int32, String)
        do {
            let command = try VerifyCommand.parse(["--timeout", "120", "--contracts", folder.path, "--target", mock.baseURL.absoluteString, "--skip", "photo of 20 MiB",
                                                   "--admin-token", "tajnehasloadmina", "--seed", "1"])
            let lines = RunCommandTests.Lines()
            result = (await command.execute(print: { lines.add($0) }), lines.text)
            try await mock.shutdown()
        } catch {
            try? await mock.shutdown()
            throw error
        }
        let (code, output) = result
        #expect(code == 0, "\(output)")
        for route in ["registerUser: malformed JSON", "loginUser: malformed JSON", "registerUser: a string root"] {
            #expect(output.contains("known defect json-parser-") && output.contains(route), "\(route)")
        }
    }

    @Test func aServerLikeTheRealOnePassesAndListsItsKnownDefectsInEveryReport() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("known-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let junit = dir.appendingPathComponent("v.xml").path, json = dir.appendingPathComponent("v.json").path
        let (code, output) = try await Self.withMock(knownDefects: true) { try await Self.verify($0, ["--junit", junit, "--json", json, "--strict"]) }
        #expect(code == 0, "\(output)")
        #expect(output.contains("0 failed"))
        #expect(output.contains("5 known defects"))
        #expect(!output.contains("NO LONGER SEEN"))
        for id in Self.knownIDs { #expect(output.contains("KNOWN") && output.contains(id), "\(id)") }
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("failures=\"0\""))
        #expect(xml.contains("<property name=\"verdict\" value=\"knownDefect\"/>"))
        #expect(xml.contains("known server defect json-parser-malformed-500"))
        let report = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(report["summary"]?["knownDefects"] == 5)
        let known = report["results"]?.arrayValue?.filter { $0["status"] == "knownDefect" } ?? []
        #expect(Set(known.compactMap { $0["knownDefects"]?.arrayValue?.first?["id"]?.stringValue }) == Set(Self.knownIDs))
        // DELETE checks ran with --admin-token instead of being skipped.
        #expect(output.contains("PASS") && output.contains("deleteAnnouncement › deleted"))
        #expect(!output.contains("give --admin-token"))
    }

    @Test(arguments: ContractDrift.allCases)
    func everyDriftStillFailsNamingIt(drift: ContractDrift) async throws {
        let (code, output) = try await Self.withMock(knownDefects: true, drift: [drift]) { try await Self.verify($0) }
        #expect(code == 1, "\(drift): \(output)")
        let failed = output.components(separatedBy: "\nfailed:").last ?? ""
        #expect(!failed.isEmpty && output.contains("FAIL"), "\(drift)")
        // What each drift breaks, as the report names it.
        let named: [ContractDrift: String] = [
            .renamedManagementPassword: "managementPassword", .photoUploadAnswers200: "uploadPhoto › photo stored",
            .bearerInsteadOfBasic: "uploadPhoto", .missingRequestID: "request-id", .serverErrorOnUnknownFields: "server-owned id sent",
        ]
        #expect(output.contains(named[drift] ?? "?"), "\(drift): \(output)")
    }

    @Test func theFixedServerPassesButSaysWhichKnownDefectsWereNotSeen() async throws {
        let (code, output) = try await Self.withMock(knownDefects: false) { try await Self.verify($0) }
        #expect(code == 0, "\(output)")
        for id in Self.knownIDs { #expect(output.contains("KNOWN DEFECT NO LONGER SEEN: \(id)"), "\(id)") }
        #expect(output.contains("remove it from the list"))
        let (strictCode, strictOutput) = try await Self.withMock(knownDefects: false) { try await Self.verify($0, ["--strict"]) }
        #expect(strictCode == 1, "\(strictOutput)")
        #expect(strictOutput.contains("[fails under --strict]"))
    }

    @Test func aMessageChangeIsReportedUnlessMessagesAreIgnored() async throws {
        let contracts = FileManager.default.temporaryDirectory.appendingPathComponent("contracts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: contracts) }
        try FileManager.default.copyItem(at: URL(fileURLWithPath: RunCommandTests.contracts), to: contracts)
        let file = contracts.appendingPathComponent("get-announcement.json")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"Resource not found\"", with: "\"Nie znaleziono\"")
        try text.write(to: file, atomically: true, encoding: .utf8)
        try await Self.withMock(knownDefects: true) { target in
            let base = ["--timeout", "120", "--contracts", contracts.path, "--target", target.absoluteString, "--skip", "photo of 20 MiB", "--no-explore"]
            let json = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: json) }
            let command = try VerifyCommand.parse(base + ["--json", json.path])
            let lines = RunCommandTests.Lines()
            #expect(await command.execute(print: { lines.add($0) }) == 1)
            #expect(lines.text.contains("body /error/message"))
            #expect(lines.text.contains("Nie znaleziono"))
            // The hint is for people: the console shows it, the JSON's data carries only what the server said.
            #expect(lines.text.contains("(--ignore-messages skips this)"))
            let report = try JSONValue(parsing: Data(contentsOf: json))
            let mismatches = Self.values(named: "mismatches", in: report).flatMap { $0.arrayValue ?? [] }
            let message = try #require(mismatches.first { $0["subject"] == "body /error/message" })
            #expect(message["actual"] == #""Resource not found""#)
            #expect(message["expected"] == #""Nie znaleziono""#)
            let ignoring = try VerifyCommand.parse(base + ["--ignore-messages"])
            let quiet = RunCommandTests.Lines()
            #expect(await ignoring.execute(print: { quiet.add($0) }) == 0, "\(quiet.text)")
        }
    }

    @Test func runAgainstTheRealLikeServerPassesWithTheMalformedJSONStepAsAKnownDefect() async throws {
        let (code, output) = try await Self.withMock(knownDefects: true) { target in
            try await RunCommandTests.run(["--target", target.absoluteString, "--tag", "backend"])
        }
        #expect(code == 0, "\(output)")
        #expect(output.contains("KNOWN"))
        #expect(output.contains("json-parser-malformed-500"))
        #expect(output.contains("backend: create reports the first problem"))
        #expect(output.contains("0 failed"))
        #expect(!output.contains("NO LONGER SEEN"))
    }

    @Test func runAgainstAFixedServerSaysTheDefectIsNoLongerSeenAndFailsOnlyUnderStrict() async throws {
        let (code, output) = try await Self.withMock(knownDefects: false) { target in
            try await RunCommandTests.run(["--target", target.absoluteString, "--tag", "backend"])
        }
        #expect(code == 0, "\(output)")
        #expect(output.contains("KNOWN DEFECT NO LONGER SEEN: json-parser-malformed-500"))
        let (strictCode, _) = try await Self.withMock(knownDefects: false) { target in
            try await RunCommandTests.run(["--target", target.absoluteString, "--tag", "backend", "--strict"])
        }
        #expect(strictCode == 1)
    }

    /// Every value stored under `key` anywhere in `value`.
    static func values(named key: String, in value: JSONValue) -> [JSONValue] {
        switch value {
        case .object(let object): return object.flatMap { member in (member.key == key ? [member.value] : []) + values(named: key, in: member.value) }
        case .array(let items): return items.flatMap { values(named: key, in: $0) }
        default: return []
        }
    }
}
