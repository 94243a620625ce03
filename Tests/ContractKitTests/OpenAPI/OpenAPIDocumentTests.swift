import Foundation
import Testing
@testable import ContractKit

/// OpenAPI documents as contract sets: 3.0 and 3.1, YAML and JSON, `$ref`s across files, security schemes, `nullable`,
/// examples, and the warnings and errors a person can act on (file, line, column, pointer).
@Suite struct OpenAPIDocumentTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/openapi")
    static let shelter = fixtures.appendingPathComponent("shelter-30/api.yaml")
    static let kennel = fixtures.appendingPathComponent("kennel-31.json")
    static let contradictions = fixtures.appendingPathComponent("contradictions.yaml")

    /// The 1-based line of the first line of `file` containing `marker`.
    static func line(of marker: String, in file: URL) throws -> Int {
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        return try #require(lines.firstIndex { $0.contains(marker) }) + 1
    }

    @Test func aYAML30DocumentWithRefsAcrossFilesIsAContractSet() throws {
        let set = try ContractSet.load(from: Self.shelter)
        #expect(set.contracts.map(\.id).sorted() == ["attachPhoto", "exportIntakes", "getApiV1Intakes", "registerIntake", "releaseIntake", "whoAmI"])
        let register = try #require(set.contract(id: "registerIntake"))
        // servers gives the base path.
        #expect(register.pathTemplate == "/api/v1/intakes")
        #expect(set.contract(id: "releaseIntake")?.pathTemplate == "/api/v1/intakes/{intakeId}")
        let body = try #require(register.request.body)
        // nullable: null joins the type; 3.0's boolean exclusiveMinimum becomes a bound.
        #expect(set.validate(["kind": "CAT", "weightKg": 4.5, "chip": .null], against: body).isEmpty)
        #expect(!set.validate(["kind": "CAT", "weightKg": 4.5, "chip": 12], against: body).isEmpty)
        #expect(!set.validate(["kind": "CAT", "weightKg": 0], against: body).isEmpty)
        #expect(!set.validate(["kind": "HORSE", "weightKg": 1], against: body).isEmpty)
        // The named examples are paired with their answer; the 400s split by the codes their examples carry.
        #expect(register.request.examples.map(\.name) == ["cat"])
        #expect(register.responses.map(\.label) == ["201", "400 MISSING_VALUE", "400 INVALID_FORMAT"])
        #expect(register.response(status: 201)?.examples.map(\.name) == ["stored"])
        #expect(register.response(status: 201)?.headers.first?.name == "X-Intake-Id")
        let list = try #require(set.contract(id: "getApiV1Intakes"))
        let limit = try #require(list.request.query.first { $0.name == "limit" })
        #expect(set.validate(49, against: limit.schema).isEmpty)
        #expect(!set.validate(50, against: limit.schema).isEmpty)
    }

    @Test func securitySchemesBecomeAuth() throws {
        let set = try ContractSet.load(from: Self.shelter)
        #expect(set.contract(id: "registerIntake")?.request.auth?.scheme == "basic")  // the document-wide security
        #expect(set.contract(id: "getApiV1Intakes")?.request.auth == nil)  // `security: []`
        #expect(set.contract(id: "attachPhoto")?.request.auth?.scheme == "basic")
        #expect(set.contract(id: "whoAmI")?.request.auth?.scheme == "bearer")
        let release = try #require(set.contract(id: "releaseIntake")?.request.auth)
        #expect(release.scheme == "apiKey")
        #expect(release.header == "X-Staff-Key")
        // An API key in the query is a required query parameter, and says so.
        let export = try #require(set.contract(id: "exportIntakes"))
        #expect(export.request.auth == nil)
        #expect(export.request.query.first { $0.name == "key" }?.required == true)
        #expect(set.warnings.contains { $0.message.contains("exportIntakes") && $0.message.contains("query") })
    }

    @Test func multipartPartsAndNonJSONAnswersAreServed() throws {
        let set = try ContractSet.load(from: Self.shelter)
        let photo = try #require(set.contract(id: "attachPhoto"))
        #expect(photo.request.contentType == "multipart/form-data")
        #expect(photo.request.parts.map { "\($0.name):\($0.kind):\($0.required)" } == ["photo:file:true", "note:text:false"])
        let export = try #require(set.contract(id: "exportIntakes"))
        #expect(export.response(status: 200)?.contentType == "text/csv")
    }

    @Test func aJSON31DocumentReadsJSONSchema2020() throws {
        let set = try ContractSet.load(from: Self.kennel)
        let booking = try #require(set.contracts.first)
        // No operationId: the id comes from the method and path; servers' /v1 is the base path.
        #expect(booking.id == "postV1Bookings")
        #expect(booking.pathTemplate == "/v1/bookings")
        let body = try #require(booking.request.body)
        #expect(set.validate(["pet": "Rex", "nights": 2, "notes": .null], against: body).isEmpty)
        #expect(!set.validate(["pet": "Rex", "nights": 0], against: body).isEmpty)
        #expect(!set.validate(["pet": "Rex", "nights": 31], against: body).isEmpty)
        let answer = try #require(booking.response(status: 201)?.body)
        #expect(!set.validate(["pet": "Rex", "nights": 1, "id": 0], against: answer).isEmpty)
        #expect(booking.response(status: 201)?.examples.first?.body?["id"] == 12)
    }

    @Test func basePathOverridesServers() throws {
        let set = try ContractSet.load(documents: [Self.kennel], basePath: "/api/v1/")
        #expect(set.contracts.first?.pathTemplate == "/api/v1/bookings")
        let root = try ContractSet.load(documents: [Self.kennel], basePath: "/")
        #expect(root.contracts.first?.pathTemplate == "/bookings")
    }

    @Test func contradictionsAreWarningsNamingBothPlacesAndTheBrokenExampleIsNotServed() throws {
        let set = try ContractSet.load(from: Self.contradictions)
        let visit = try #require(set.contract(id: "bookVisit"))
        #expect(visit.request.examples.map(\.name) == ["fine"])
        let file = LintPrinter.displayPath(Self.contradictions)
        let broken = try #require(set.warnings.first { $0.message.contains("wrongDay") })
        #expect(broken.file == file)
        #expect(broken.line == (try Self.line(of: "wrongDay:", in: Self.contradictions)))
        #expect(broken.column != nil)
        #expect(broken.pointer.hasPrefix("/paths/~1api~1v1~1visits/post/requestBody/content/application~1json/examples/wrongDay"))
        #expect(broken.message.contains("not served"))
        // The other place: the schema the example breaks.
        #expect(broken.message.contains("/paths/~1api~1v1~1visits/post/requestBody/content/application~1json/schema"))
        let nothing = try #require(set.warnings.first { $0.message.contains("#/components/schemas/Missing") })
        #expect(nothing.line == (try Self.line(of: "$ref: '#/components/schemas/Missing'", in: Self.contradictions)))
        #expect(nothing.message.contains("points to nothing"))
        let required = try #require(set.warnings.first { $0.message.contains("visitor is required but not among the properties") })
        #expect(required.message.contains("properties"))
        let callback = try #require(set.warnings.first { $0.message.contains("callbacks") })
        #expect(callback.message.contains("bookVisit"))
        #expect(callback.line == (try Self.line(of: "callbacks:", in: Self.contradictions)))
        // Everything else is still served: both answers, the 409 with an example made from its (empty) schema.
        #expect(visit.responses.map(\.status) == [201, 409])
    }

    @Test func anAnswerWhoseSchemaAdmitsNoValueIsServedWithItsOwnExampleAndAWarning() throws {
        let document = Self.contradictions.deletingLastPathComponent().appendingPathComponent("closed-allof.yaml")
        let set = try ContractSet.load(from: document)
        let create = try #require(set.contract(id: "createTag"))
        let created = try #require(create.responses.first { $0.status == 201 })
        #expect(created.examples.first?.body == ["label": "red", "secret": "123456"])
        #expect(set.warnings.contains { $0.message.contains("may admit no value at all") && $0.message.contains("served as written") })
    }

    @Test func aSyntaxErrorNamesItsFileLineAndColumn() throws {
        let file = Self.fixtures.appendingPathComponent("syntax-error.yaml")
        do {
            _ = try ContractSet.load(from: file)
            Issue.record("a broken document loaded")
        } catch {
            let problem = try #require(error.problems.first)
            #expect(problem.file == LintPrinter.displayPath(file))
            #expect(problem.line == 6)
            #expect(problem.column != nil)
            #expect(problem.message.contains("invalid YAML"))
        }
    }

    @Test func aDocumentOfAnotherVersionIsRefusedWithItsLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("old.yaml")
        try "info:\n  title: x\nswagger: '2.0'\npaths: {}\n".write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try ContractSet.load(from: file)
            Issue.record("a Swagger 2.0 document loaded")
        } catch {
            #expect(error.problems.first?.line == 3)
            #expect(error.problems.first?.pointer == "/swagger")
        }
    }

    /// Export, then load the document: the same contracts (every key of every contract file, `x-` rules in their
    /// order) and the same shared schemas.
    @Test(arguments: ["", "versions/2026-01-12"])
    func exportThenImportIsLossless(version: String) throws {
        let directory = version.isEmpty ? ContractSet.bundledDirectory : ContractSet.bundledDirectory.appendingPathComponent(version)
        let folder = try ContractSet.load(from: directory)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("exported-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try OpenAPIExporter(contracts: folder).render().write(to: file, atomically: true, encoding: .utf8)
        let document = try ContractSet.load(from: file)
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        #expect(document.contracts.map(\.id) == folder.contracts.map(\.id))
        for contract in folder.contracts {
            let imported = try #require(document.contract(id: contract.id))
            #expect(imported.file.lastPathComponent == contract.file.lastPathComponent)
            #expect(imported.source == contract.source, "\(contract.id)")
            // Key order matters where it is the order rules are checked in.
            #expect(imported.source.serialized().contains("x-errors") == contract.source.serialized().contains("x-errors"))
        }
        for (name, schema) in folder.schemas {
            var expected = schema.objectValue ?? JSONObject()
            expected["$schema"] = nil
            #expect(document.schemas[name] == .object(expected), "\(name)")
            #expect(document.schemas[name]?.serialized() == JSONValue.object(expected).serialized(), "\(name): key order")
        }
        #expect(document.knownDefects.count == folder.knownDefects.count)
        #expect(document.service == folder.service)
        #expect(Set(document.requestRules.keys) == Set(folder.requestRules.keys))
    }
}

/// The example made for an answer the document shows none of.
@Suite struct ExampleSynthesizerTests {
    @Test func aValueMadeFromSharedSchemasPassesThem() throws {
        let documents: [String: JSONValue] = [
            "schemas/Base.json": ["type": "object", "required": ["kind"], "properties": ["kind": ["type": "string", "enum": ["CAT", "DOG"]]]],
            "schemas/Full.json": ["allOf": [["$ref": "schemas/Base.json"],
                                            ["type": "object", "required": ["id"], "properties": ["id": ["type": "string", "format": "uuid"]]]]],
        ]
        let synthesizer = ExampleSynthesizer(validator: SchemaValidator(documents: documents))
        let value = try #require(synthesizer.example(for: ["$ref": "schemas/Full.json"]))
        #expect(value["kind"] == "CAT")
        #expect(value["id"]?.stringValue?.count == 36)
    }

    @Test func aSchemaNoValueCanMeetGivesNone() {
        let synthesizer = ExampleSynthesizer(validator: SchemaValidator())
        #expect(synthesizer.example(for: ["type": "string", "pattern": "^[0-9]{4}$"]) == Optional<JSONValue>.none)
        #expect(synthesizer.example(for: ["type": "integer", "minimum": 3, "maximum": 9]) == 3)
    }
}
