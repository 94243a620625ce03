import ContractKit
import Foundation
import Testing

@testable import MockCommands
@testable import spotcheck

/// A team document through verify, explore, run and diff: `--base-path` wherever `--contracts` takes a document, the
/// stateless exploration judged by the document's own rules, and diff naming the document's lines.
@Suite(.serialized) struct OpenAPIDriftCommandTests {
    /// `text` written to a fresh file `name` in its own folder; the caller removes the folder.
    static func document(_ name: String, _ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drift-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// A read of the list whose servers say /v1 (the target serves /api/v1), with a stated latitude range and a result
    /// it requires under another name than the server sends.
    static let listing = """
        openapi: 3.0.3
        info: {title: Listing, version: "1"}
        servers: [{url: "http://localhost/v1"}]
        paths:
          /announcements:
            get:
              operationId: browse
              parameters:
                - {name: lat, in: query, schema: {type: number, minimum: -90, maximum: 90}}
                - {name: lng, in: query, schema: {type: number, minimum: -180, maximum: 180}}
              responses:
                "200":
                  description: the list
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [items]
                        properties:
                          items: {type: array}
                      examples:
                        everything: {value: {items: []}}
                "400":
                  description: a bad coordinate
                  content:
                    application/json:
                      schema: {type: object}
                      examples:
                        latitudeTooBig: {value: {error: {message: "lat out of range"}}}
        """

    static func verify(_ document: URL, _ extra: [String]) async throws -> (Int32, String) {
        let serve = try ServeCommand.parse(["--contracts", RunCommandTests.contracts, "--port", "0", "--quiet", "--seed", "7"])
        let mock = try await serve.start().get()
        let command = try VerifyCommand.parse(["--timeout", "120", "--contracts", document.path, "--target", mock.baseURL.absoluteString, "--seed", "34"] + extra)
        let lines = RunCommandTests.Lines()
        let code = await command.execute(print: { lines.add($0) })
        try await mock.shutdown()
        return (code, lines.text)
    }

    @Test func verifyTakesABasePathAndExploresAStatelessDocumentByItsOwnRules() async throws {
        let document = try Self.document("listing.yaml", Self.listing)
        defer { try? FileManager.default.removeItem(at: document.deletingLastPathComponent()) }
        // Under the served base path the stated rules are checked, and exploration judges generated requests; the base
        // path the document states is still the one finding it is.
        let (code, output) = try await Self.verify(document, ["--base-path", "/api/v1", "--cases", "60"])
        #expect(code == 1)
        #expect(output.contains("served routes › /v1/announcements"))
        #expect(output.contains("the rest runs under /api/v1 (--base-path)"))
        #expect(output.contains("explored statelessly (no x-state)"))
        #expect(!output.contains("explore › setup"))
        // The required key the server does not send, from the example and from exploration's answers: one finding.
        #expect(output.contains("explore › browse: 200 body /items required"))
        let drift = output.split(separator: "\n").filter { $0.contains("✗ body /items: expected items is required") }
        #expect(drift.count == 1, "\(output.suffix(3000))")
        #expect(drift.first?.contains("seen in browse › everything (") == true && drift.first?.contains("; exploration (") == true)
        // The error example names no request: skipped, never judged against the list's answer.
        #expect(!output.contains("✗ browse › latitudeTooBig"))
        // A latitude out of the stated range must be refused; the target refuses it, so that is no finding.
        #expect(!output.contains("accepts what the document refuses: lat"), "\(output.suffix(3000))")
        // A latitude without its longitude is refused by a rule the document states in no schema: a note, not a failure.
        #expect(output.contains("≈ note: explore › browse: refuses what the document allows (400 INVALID_PARAMETER lng)"), "\(output.suffix(3000))")
    }

    @Test func aBasePathServedElsewhereIsOneFindingAndTheRestRunsThere() async throws {
        let document = try Self.document("listing.yaml", Self.listing)
        defer { try? FileManager.default.removeItem(at: document.deletingLastPathComponent()) }
        // The document says /v1; the target serves the same operation under /api/v1, which a probe finds.
        let (code, text) = try await Self.verify(document, ["--no-explore"])
        #expect(code == 1)
        let finding = text.split(separator: "\n").filter { $0.hasPrefix("✗ ") && $0.contains("serves none of the 1 operation(s), all under /v1/announcements") }
        #expect(finding.count == 1, "\(text)")
        #expect(finding.first?.hasSuffix("the rest runs under /api/v1/announcements (a probe found the same operations served there)") == true, "\(text)")
        // The rest ran there: the example's own drift is found under the served path.
        #expect(text.contains("FAIL") && text.contains("browse › everything"), "\(text)")
        #expect(text.contains("GET http://127.0.0.1:") && text.contains("/api/v1/announcements → 200"), "\(text)")
        #expect(text.contains("served routes › /v1/announcements"))
    }

    @Test func contractsTakesAFolderOfDocumentsOrSeveralAsOneSet() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drift-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let details = """
            openapi: 3.0.3
            info: {title: One, version: "1"}
            paths:
              /api/v1/announcements/{id}:
                get:
                  operationId: one
                  parameters: [{name: id, in: path, required: true, schema: {$ref: "./shared.yaml#/Id"}}]
                  responses:
                    "200": {description: it, content: {application/json: {schema: {type: object}, examples: {found: {value: {}}}}}}
            """
        let list = """
            {"openapi": "3.1.0", "info": {"title": "All", "version": "1"},
             "paths": {"/api/v1/announcements": {"get": {"operationId": "all", "responses": {"200": {"description": "all"}}}}}}
            """
        try Data(details.utf8).write(to: folder.appendingPathComponent("b-details.yaml"))
        try Data(list.utf8).write(to: folder.appendingPathComponent("a-list.json"))
        try Data("Id: {type: string}\n".utf8).write(to: folder.appendingPathComponent("shared.yaml"))
        // The roots only, in name order; the file they $ref is read through them.
        #expect(InputFolder.documents(folder.path)?.map(\.lastPathComponent) == ["a-list.json", "b-details.yaml"])
        #expect(InputFolder.documents(RunCommandTests.contracts) == nil, "a contract folder stays a folder")
        let repeated = try VerifyCommand.parse(["--contracts", "x.yaml", "--contracts", "y.yaml"])
        #expect(repeated.contractsDirectory == "x.yaml,y.yaml")
        // Every command that loads contracts takes several the same way (issue 45).
        #expect(try RunCommand.parse(["--contracts", "x.yaml", "--contracts", "y.yaml"]).contractsDirectory == "x.yaml,y.yaml")
        #expect(try ExploreCommand.parse(["--contracts", "x.yaml", "--contracts", "y.yaml"]).contractsDirectory == "x.yaml,y.yaml")
        #expect(try ServeCommand.parse(["--contracts", "x.yaml", "--contracts", "y.yaml"]).contracts == "x.yaml,y.yaml")
        #expect(try ProxyCommand.parse(["--contracts", "x.yaml", "--contracts", "y.yaml", "--target", "http://127.0.0.1:1"]).contracts == "x.yaml,y.yaml")
        // And the two documents load as one set, as serve reads them.
        let twoOptions = try ServeCommand.parse(["--contracts", folder.appendingPathComponent("a-list.json").path,
                                                 "--contracts", folder.appendingPathComponent("b-details.yaml").path])
        let served = try InputFolder.load(twoOptions.contracts).contracts.map(\.id).sorted()
        #expect(served == ["all", "one"], "\(served)")
        // As one set, the list gives the details their id: nothing is left unreachable.
        let serve = try ServeCommand.parse(["--contracts", RunCommandTests.contracts, "--port", "0", "--quiet", "--validate", "off", "--fixtures",
                                            RunCommandTests.contracts + "/fixtures/pets.json"])
        let mock = try await serve.start().get()
        let lines = RunCommandTests.Lines()
        let command = try VerifyCommand.parse(["--timeout", "120", "--contracts", folder.path, "--target", mock.baseURL.absoluteString, "--cases", "5"])
        _ = await command.execute(print: { lines.add($0) })
        try await mock.shutdown()
        #expect(lines.text.contains("one › found"), "\(lines.text)")
        #expect(!lines.text.contains("not reachable"), "\(lines.text)")
        #expect(lines.text.contains("reached: one: {id} = "), "\(lines.text)")
    }

    @Test func runAndExploreTakeABasePathForDocumentsOnly() async throws {
        for arguments in [["--contracts", RunCommandTests.contracts, "--base-path", "/api/v1"]] {
            let run = try RunCommand.parse(["--scenarios", RunCommandTests.scenarios] + arguments)
            let lines = RunCommandTests.Lines()
            #expect(await run.execute(print: { lines.add($0) }) == 2)
            #expect(lines.text.contains("--base-path applies to OpenAPI documents"))
            let explore = try ExploreCommand.parse(arguments)
            let explored = RunCommandTests.Lines()
            #expect(await explore.execute(print: { explored.add($0) }) == 2)
            #expect(explored.text.contains("--base-path applies to OpenAPI documents"))
        }
    }

    @Test func diffBetweenTwoDocumentsNamesTheDocumentsLines() throws {
        let old = try Self.document("old.yaml", Self.listing)
        // The new version drops the documented 400 and requires a query parameter the old one left optional.
        let changed = Self.listing.replacingOccurrences(of: "\n        \"400\":", with: "\n        \"404\":")
            .replacingOccurrences(of: "{name: lat, in: query, schema", with: "{name: lat, in: query, required: true, schema")
        let new = try Self.document("new.yaml", changed)
        defer {
            try? FileManager.default.removeItem(at: old.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: new.deletingLastPathComponent())
        }
        let outcome = try DiffCommand.parse([old.path, new.path, "--base-path", "/api/v1"]).execute()
        #expect(outcome.exitCode == 1, "\(outcome.output)")
        #expect(!outcome.output.contains(".json:"), "\(outcome.output)")
        // Each change is cited at the document's line, column and pointer: the new requirement where it is stated, the
        // removed answer at the responses it is gone from.
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("BREAKING   browse \(new.path):9:34:/paths/~1announcements/get/parameters/0/required: ") }, "\(outcome.output)")
        #expect(lines.contains { $0.hasPrefix("BREAKING   browse \(new.path):11:7:/paths/~1announcements/get/responses: the response 400") }, "\(outcome.output)")
    }
}
