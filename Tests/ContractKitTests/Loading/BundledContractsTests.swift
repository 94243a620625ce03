import Foundation
import Testing
@testable import ContractKit

@Suite struct BundledContractsTests {
    let set: ContractSet

    init() throws {
        set = try ContractSet.load(from: ContractSet.bundledDirectory)
    }

    @Test func bundledContractsLintClean() {
        #expect(ContractSet.lint(directory: ContractSet.bundledDirectory) == [])
    }

    @Test func everyEndpointIsPresent() {
        let ids = Set(set.contracts.map(\.id))
        #expect(ids.isSuperset(of: ["createAnnouncement", "uploadPhoto", "getAnnouncement", "listAnnouncements", "health", "deleteAnnouncement", "getImage"]))
        #expect(set.contract(id: "uploadPhoto")?.request.auth?.scheme == "basic")
        #expect(set.contract(id: "createAnnouncement")?.request.maxBodyBytes == 102_400)
        #expect(set.contract(id: "uploadPhoto")?.request.maxFileBytes == 20_971_520)
        #expect(set.contract(id: "nope") == nil)
    }

    @Test func everyDocumentedErrorCodeIsListed() {
        let codes = Set(set.contracts.flatMap { $0.responses.compactMap(\.code) })
        for code in ["MISSING_VALUE", "INVALID_FORMAT", "INVALID_FIELD", "MISSING_CONTACT", "MISSING_FILE", "INVALID_FILE_FORMAT",
                     "INVALID_PARAMETER", "UNAUTHENTICATED", "UNAUTHORIZED", "NOT_FOUND", "CONFLICT", "PAYLOAD_TOO_LARGE",
                     "INTERNAL_SERVER_ERROR"] {
            #expect(codes.contains(code), "missing \(code)")
        }
        #expect(set.contract(id: "createAnnouncement")?.response(status: 413)?.code == "PAYLOAD_TOO_LARGE")
        #expect(set.contract(id: "uploadPhoto")?.response(status: 413)?.code == "PAYLOAD_TOO_LARGE")
    }

    @Test func everyResponseHasAnExampleAndRequestIdHeader() {
        for contract in set.contracts {
            for response in contract.responses {
                #expect(!response.examples.isEmpty, "\(contract.id) \(response.label)")
                // The JSON body parser's answers (create 413, malformed JSON) come before the request id exists.
                let fromBodyParser = contract.id == "createAnnouncement" && (response.status == 413 || response.status == 500 || response.code == "INVALID_FORMAT")
                #expect(response.headers.contains { $0.name == "request-id" && $0.required != fromBodyParser }, "\(contract.id) \(response.label)")
            }
        }
    }

    @Test func matchesPathTemplatesPreferringLiterals() throws {
        let upload = try #require(set.match(method: "POST", path: "/api/v1/announcements/abc-1/photos"))
        #expect(upload.contract.id == "uploadPhoto")
        #expect(upload.parameters == ["id": "abc-1"])
        #expect(set.match(method: "get", path: "/api/v1/announcements?lat=1&lng=2")?.contract.id == "listAnnouncements")
        #expect(set.match(method: "GET", path: "/api/v1/announcements/x%20y")?.parameters == ["id": "x y"])
        #expect(set.match(method: "POST", path: "/api/v1/announcements")?.contract.id == "createAnnouncement")
        #expect(set.match(method: "DELETE", path: "/api/v1/announcements/1")?.contract.id == "deleteAnnouncement")
        #expect(set.match(method: "PUT", path: "/api/v1/announcements/1") == nil)
        #expect(set.match(method: "GET", path: "/api/v1/nothing") == nil)
        #expect(set.match(method: "GET", path: "/images/abc.jpeg")?.parameters == ["file": "abc.jpeg"])
        #expect(set.match(method: "POST", path: "/api/v1/announcements//photos") == nil)
    }

    func request(_ overrides: [(String, JSONValue?)]) -> JSONValue {
        var body: JSONObject = [
            "species": "DOG", "sex": "MALE", "locationLatitude": 1, "locationLongitude": 2, "email": "a@b.co",
            "lastSeenDate": "2025-01-02", "status": "MISSING",
        ]
        for (key, value) in overrides { body[key] = value }
        return .object(body)
    }

    func firstViolation(_ body: JSONValue) throws -> SchemaViolation? {
        let schema = try #require(set.schema(named: "CreateAnnouncementRequest"))
        return set.validate(body, against: schema).first
    }

    @Test func validCreateRequestHasNoViolations() throws {
        #expect(try firstViolation(request([])) == nil)
        #expect(try firstViolation(request([("email", nil), ("phone", "1")])) == nil)
        // null is a wrong type, never "absent".
        #expect(try firstViolation(request([("petName", .null)]))?.keyword == "type")
        // Trimming comes before the format rules.
        #expect(try firstViolation(request([("microchipNumber", " 123 "), ("lastSeenDate", " 2025-11-18 ")])) == nil)
        #expect(try firstViolation(request([("microchipNumber", "")]))?.pointer == "/microchipNumber")
    }

    @Test func createRequestViolationsFollowTheRealBackendOrder() throws {
        // Unknown properties come before everything else.
        let unknown = try firstViolation(request([("id", "x"), ("species", nil)]))
        #expect(unknown == SchemaViolation(pointer: "/id", keyword: "additionalProperties", message: "id is not an allowed property"))
        // Property order: species before sex before status.
        #expect(try firstViolation(request([("status", "ACTIVE"), ("sex", nil), ("species", nil)]))?.pointer == "/species")
        #expect(try firstViolation(request([("status", nil), ("sex", "  ")]))?.pointer == "/sex")
        #expect(try firstViolation(request([("status", nil)])) == SchemaViolation(pointer: "/status", keyword: "required", message: "status is required"))
        #expect(try firstViolation(request([("status", "ACTIVE")]))?.keyword == "enum")
        #expect(try firstViolation(request([("age", 0), ("lastSeenDate", "2025-13-01")]))?.pointer == "/age")
        #expect(try firstViolation(request([("microchipNumber", "12a")]))?.pointer == "/microchipNumber")
        #expect(try firstViolation(request([("locationLatitude", 90.5)]))?.keyword == "maximum")
        #expect(try firstViolation(request([("locationLongitude", -181)]))?.keyword == "minimum")
        #expect(try firstViolation(request([("email", "a b@c.d")]))?.pointer == "/email")
        #expect(try firstViolation(request([("email", nil), ("phone", "abc")]))?.pointer == "/phone")
        #expect(try firstViolation(request([("lastSeenDate", "19.11.2025")]))?.keyword == "pattern")
    }

    @Test func contactRuleIsARootAnyOfReportedLast() throws {
        let schema = try #require(set.schema(named: "CreateAnnouncementRequest"))
        let noContact = request([("email", ""), ("status", nil)])
        let violations = set.validate(noContact, against: schema)
        #expect(violations.map(\.keyword) == ["required", "anyOf"])
        #expect(violations.last?.pointer == "")
        #expect(try firstViolation(request([("email", nil)]))?.keyword == "anyOf")
        #expect(try firstViolation(request([("email", "   "), ("phone", "")]))?.keyword == "anyOf")
    }

    @Test func responseSchemasEncodeTheInvariants() throws {
        let announcement = try #require(set.contract(id: "getAnnouncement")?.successResponse?.examples.first?.body)
        let schema = try #require(set.schema(named: "Announcement"))
        #expect(set.validate(announcement, against: schema) == [])
        #expect(announcement.objectValue?.count == 18)
        var withPassword = try #require(announcement.objectValue)
        withPassword["managementPassword"] = "123456"
        #expect(set.validate(.object(withPassword), against: schema).first?.keyword == "additionalProperties")
        var badId = try #require(announcement.objectValue)
        badId["id"] = "not-a-uuid"
        #expect(set.validate(.object(badId), against: schema).first?.pointer == "/id")
        var badPhoto = try #require(announcement.objectValue)
        badPhoto["photoUrl"] = "http://x/y.jpeg"
        #expect(set.validate(.object(badPhoto), against: schema).first?.keyword == "pattern")

        let created = try #require(set.contract(id: "createAnnouncement")?.successResponse)
        let createdBody = try #require(created.examples.first?.body?.objectValue)
        var withPhoto = createdBody
        withPhoto["photoUrl"] = "/images/x.jpeg"
        #expect(set.validate(.object(withPhoto), against: try #require(created.body)).map(\.pointer) == ["/photoUrl"])
        var shortPassword = createdBody
        shortPassword["managementPassword"] = "12345"
        #expect(set.validate(.object(shortPassword), against: try #require(created.body)).map(\.pointer) == ["/managementPassword"])
    }

    @Test func requestIdHeaderSchemaIsTenAlphanumerics() throws {
        let header = try #require(set.contract(id: "health")?.responses.first?.headers.first)
        #expect(set.validate("aB3dE5gH9k", against: header.schema) == [])
        #expect(set.validate("aB3dE5gH9", against: header.schema).first?.keyword == "pattern")
        #expect(set.validate("aB3dE5gH9-", against: header.schema).first?.keyword == "pattern")
    }

    @Test func validateAcceptsRootRelativeReferences() {
        let violations = set.validate(["error": ["code": "X"]], against: ["$ref": "schemas/ErrorEnvelope.json"])
        #expect(violations.map(\.pointer) == ["/error/requestId", "/error/message"])
    }
}
