import Foundation
import Testing
@testable import ContractKit

/// A translated folder's examples are judged before its one load: the check finds exactly what the folder loader
/// refuses in examples, and a document whose pruning cascades (an example out, so its answer gets one made from the
/// schema) is loaded once, to the result the reload-until-clean loop gave.
@Suite struct OpenAPIExampleCheckTests {
    static let fixtures = OpenAPIDocumentTests.fixtures

    /// A create whose request has a broken example beside a good one, whose 201's only example breaks its schema (so
    /// the answer is left with none and gets one made from the schema) and whose 409 example carries another code.
    static let cascade = """
        openapi: 3.0.3
        info: {title: Cascade, version: "1"}
        paths:
          /things:
            post:
              operationId: createThing
              requestBody:
                content:
                  application/json:
                    schema: {type: object, required: [name], properties: {name: {type: string}}}
                    examples:
                      good: {value: {name: box}}
                      numbered: {value: {name: 3}}
              responses:
                "201":
                  description: made
                  content:
                    application/json:
                      schema: {type: object, required: [id], properties: {id: {type: string, minLength: 1}}}
                      examples:
                        numeric: {value: {id: 5}}
                "409":
                  description: taken
                  x-spotcheck-codes: [TAKEN]
                  content:
                    application/json:
                      schema: {type: object, properties: {error: {type: object, properties: {code: {type: string}}}}}
                      examples:
                        taken: {value: {error: {code: TAKEN}}}
                        other: {value: {error: {code: GONE}}}
        """

    static func write(_ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("example-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("cascade.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The folder a document translates into, before anything is pruned.
    static func translated(_ document: URL) throws -> [String: JSONValue] {
        var translator = OpenAPITranslator(fileSet: OpenAPIFileSet(), basePathOverride: nil)
        try translator.translate(roots: [document.standardizedFileURL])
        translator.finish()
        return translator.folder
    }

    /// Whether a loader problem is about an example or an answer's example list (what the pruner may act on).
    static func isAboutExamples(_ problem: LintProblem) -> Bool {
        let tokens = JSONPointer.tokens(problem.pointer) ?? []
        if tokens.count >= 3, tokens[0] == "responses", tokens[2] == "examples" { return true }
        return tokens.count >= 3 && tokens[0] == "request" && tokens[1] == "examples"
    }

    @Test(arguments: ["contradictions.yaml", "closed-allof.yaml", "kennel-31.json", "shelter-30/api.yaml", "cascade"])
    func theCheckFindsWhatTheLoaderRefusesInExamples(_ name: String) throws {
        let document = name == "cascade" ? try Self.write(Self.cascade) : Self.fixtures.appendingPathComponent(name)
        let directory = document.standardizedFileURL
        let files = try Self.translated(document)
        var loader = ContractLoader(directory: directory, files: files.mapValues { $0.data() })
        _ = loader.load()
        let refused = loader.problems.filter(Self.isAboutExamples)
        let found = OpenAPIExampleCheck(directory: directory).findings(in: files, keys: files.keys)
        #expect(found.map(\.problem) == refused)
        #expect(found.allSatisfy { LintPrinter.displayPath(directory.appendingPathComponent($0.key)) == $0.problem.file })
        if name == "cascade" || name == "contradictions.yaml" { #expect(!refused.isEmpty, "the document has examples to prune") }
    }

    @Test func aCascadeOfPrunesIsOneLoad() throws {
        let document = try Self.write(Self.cascade)
        var loads = 0
        let folder = try OpenAPIFolder.translate(documents: [document], makingLoader: { directory, files in
            loads += 1
            return ContractLoader(directory: directory, files: files)
        })
        #expect(loads == 1)
        let file = LintPrinter.displayPath(document)
        let pruned = folder.warnings.filter { $0.message.contains("not served") || $0.message.contains("made from the schema") }
        // In the order the reload-until-clean loop gave them: what a first load refused, then what its pruning brought.
        #expect(pruned.map(\.message) == [
            "the example \"numbered\" does not match its schema: name must be a string, found the number 3"
                + " (the schema: \(file):10:13 /paths/~1things/post/requestBody/content/application~1json/schema); the example is not served",
            "the example \"numeric\" does not match its schema: id must be a string, found the number 5"
                + " (the schema: \(file):15:9 /paths/~1things/post/responses/201); the example is not served",
            "the example \"other\" carries the code GONE but the response's code is TAKEN"
                + " (the schema: \(file):22:9 /paths/~1things/post/responses/409); the example is not served",
            "no example of this answer fits its schema; it is served with one made from the schema",
        ], "\(pruned)")
        #expect(pruned.map(\.line) == [13, 21, 30, 15])
        let create = try #require(folder.contracts.contract(id: "createThing"))
        #expect(create.request.examples.map(\.name) == ["good"])
        #expect(create.response(status: 201)?.examples.map(\.name) == ["made from the schema"])
        #expect(create.response(status: 409)?.examples.map(\.name) == ["taken"])
        #expect(folder.files["create-thing.json"]?["responses"]?.arrayValue?.first?["examples"]?.arrayValue?.first?["name"] == "made from the schema")
        // The set loading the document is that one load's.
        let set = try ContractSet.load(from: document)
        #expect(set.contracts.map(\.source) == folder.contracts.contracts.map(\.source))
        #expect(set.warnings == folder.warnings)
    }
}
