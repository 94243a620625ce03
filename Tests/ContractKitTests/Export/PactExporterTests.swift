import Foundation
import Testing
@testable import ContractKit

@Suite struct PactExporterTests {
    let set: ContractSet
    let export: PactExport

    init() throws {
        set = try ContractSet.load(from: ContractSet.bundledDirectory)
        export = PactExporter(contracts: set).export()
    }

    var interactions: [JSONValue] { export.document["interactions"]?.arrayValue ?? [] }

    func interaction(_ description: String) throws -> JSONValue {
        try #require(interactions.first { $0["description"] == .string(description) }, "\(description)")
    }

    func example(_ contractID: String, status: Int, _ name: String) throws -> ContractExample {
        let contract = try #require(set.contract(id: contractID))
        return try #require(contract.responses.filter { $0.status == status }.flatMap(\.examples).first { $0.name == name })
    }

    @Test func declaresPactV3WithDefaultNames() {
        #expect(export.document["metadata"]?["pactSpecification"]?["version"] == "3.0.0")
        #expect(export.document["consumer"]?["name"] == "PetSpot iOS")
        #expect(export.document["provider"]?["name"] == "PetSpot backend")
    }

    @Test func namesCanBeChosen() {
        var exporter = PactExporter(contracts: set)
        exporter.consumer = "Android app"
        exporter.provider = "Staging"
        let document = exporter.export().document
        #expect(document["consumer"]?["name"] == "Android app")
        #expect(document["provider"]?["name"] == "Staging")
    }

    @Test func everyExampleIsAnInteractionOrSkippedWithAReason() {
        let examples = set.contracts.flatMap { c in c.responses.flatMap { r in r.examples.map { "\(c.id): \($0.name)" } } }
        let exported = interactions.compactMap { $0["description"]?.stringValue }
        let skipped = export.skipped.map { "\($0.contractID): \($0.exampleName)" }
        #expect(export.interactionCount == exported.count)
        #expect((exported + skipped).sorted() == examples.sorted())
        #expect(Set(exported).count == exported.count)
        for entry in export.skipped { #expect(!entry.reason.isEmpty) }
        #expect(export.document["metadata"]?["spotcheck"]?["skipped"]?.arrayValue?.count == export.skipped.count)
    }

    @Test func whatPactV3CannotCarryIsSkipped() throws {
        let reasons = Dictionary(export.skipped.map { ("\($0.contractID): \($0.exampleName)", $0.reason) }) { a, _ in a }
        let upload = try #require(set.contract(id: "uploadPhoto"))
        for name in upload.responses.flatMap(\.examples).map(\.name) {
            #expect(reasons["uploadPhoto: \(name)"]?.contains("multipart/form-data") == true, "\(name)")
        }
        #expect(reasons["getImage: jpeg photo"]?.contains("binary image/*") == true)
        #expect(reasons["createAnnouncement: body over 100 KB"]?.contains("maxBodyBytes 102400") == true)
        #expect(reasons.count == upload.responses.flatMap(\.examples).count + 2)
    }

    @Test func getByIdFillsThePathFromTheExampleAndAnswersItsBody() throws {
        let get = try interaction("getAnnouncement: with photo")
        let body = try #require(try example("getAnnouncement", status: 200, "with photo").body)
        #expect(get["request"]?["method"] == "GET")
        #expect(get["request"]?["path"] == .string("/api/v1/announcements/" + (body["id"]?.stringValue ?? "")))
        #expect(get["request"]?["headers"] == nil)
        #expect(get["request"]?["body"] == nil)
        #expect(get["response"]?["status"] == 200)
        #expect(get["response"]?["headers"] == ["Content-Type": "application/json"])
        #expect(get["response"]?["body"] == body)
        #expect(get["providerStates"] == [["name": "An announcement has this id."]])
    }

    @Test func notFoundExamplesUseAnIdNothingHas() throws {
        let missing = try interaction("getAnnouncement: unknown id")
        #expect(missing["request"]?["path"] == "/api/v1/announcements/unknown")
        #expect(missing["response"]?["status"] == 404)
        #expect(missing["response"]?["body"]?["error"]?["code"] == "NOT_FOUND")
    }

    @Test func createSendsTheExampleBodyAsJSON() throws {
        let create = try interaction("createAnnouncement: minimal report created")
        let spelled = try example("createAnnouncement", status: 201, "minimal report created")
        #expect(create["request"]?["method"] == "POST")
        #expect(create["request"]?["path"] == "/api/v1/announcements")
        #expect(create["request"]?["headers"] == ["Content-Type": "application/json"])
        #expect(create["request"]?["body"] == spelled.request?.body)
        #expect(create["response"]?["status"] == 201)
        #expect(create["response"]?["body"] == spelled.body)
    }

    @Test func anAnswerWithoutARequestIsProvokedByTheFirstValidBodyUnderItsState() throws {
        let failing = try interaction("createAnnouncement: internal error")
        #expect(failing["request"]?["body"] == set.contract(id: "createAnnouncement")?.request.examples.first?.body)
        #expect(failing["response"]?["status"] == 500)
        #expect(failing["providerStates"]?.arrayValue?.first?["name"]?.stringValue?.contains("uncaught failure") == true)
    }

    @Test func rawBodiesKeepTheirOwnContentType() throws {
        let raw = try interaction("createAnnouncement: not JSON content type")
        #expect(raw["request"]?["headers"] == ["Content-Type": "text/plain"])
        #expect(raw["request"]?["body"] == "species=CAT")
    }

    @Test func queryValuesAreArrays() throws {
        let query = try interaction("listAnnouncements: lat without lng")
        #expect(query["request"]?["query"] == ["lat": ["52.2"]])
        #expect(query["response"]?["status"] == 400)
    }

    @Test func requiredCredentialsAreSentAndMatchedByPatternExceptForThe401() throws {
        let delete = try interaction("deleteAnnouncement: deleted")
        #expect(delete["request"]?["headers"]?["Authorization"] != nil)
        #expect(delete["request"]?["matchingRules"]?["header"]?["Authorization"]?["matchers"] == [["match": "regex", "regex": "^.+$"]])
        #expect(delete["response"]?["status"] == 204)
        #expect(delete["response"]?["body"] == nil)
        #expect(delete["response"]?["headers"] == nil)
        let unauthenticated = try interaction("deleteAnnouncement: no admin token")
        #expect(unauthenticated["request"]?["headers"] == nil)
        #expect(unauthenticated["request"]?["matchingRules"] == nil)
    }

    @Test func basicCredentialsAreBuiltFromExampleValues() throws {
        let auth = AuthRequirement(scheme: "basic", header: "Authorization", credentials: "{id}:{managementPassword}", description: nil)
        let anyExample = try example("health", status: 200, "ok")
        let (value, pattern) = PactExporter(contracts: set).credentials(auth, example: anyExample)
        let plain = "3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c:482913"
        #expect(value == "Basic " + Data(plain.utf8).base64EncodedString())
        #expect(pattern == "^(?i:basic) .+$")
    }

    @Test func repeatedExampleNamesGetTheAnswerLabel() throws {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try copy.edit("get-announcement.json") { $0.set("/responses/2/examples/0/name", "unknown id") }
        let exported = PactExporter(contracts: try copy.load()).export()
        let descriptions = exported.document["interactions"]?.arrayValue?.compactMap { $0["description"]?.stringValue } ?? []
        #expect(descriptions.contains("getAnnouncement: unknown id"))
        #expect(descriptions.contains("getAnnouncement: unknown id (500 INTERNAL_SERVER_ERROR)"))
    }

    @Test func textIsTheDocumentPrettyPrinted() throws {
        #expect(try JSONValue(parsing: export.text) == export.document)
        #expect(export.text.hasSuffix("}\n"))
    }
}
