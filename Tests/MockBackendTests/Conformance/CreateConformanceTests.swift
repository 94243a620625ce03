import ContractKit
import Foundation
import Testing

@testable import ContractModel
@testable import MockBackend

/// petspot-api.md, "POST /api/v1/announcements", row by row over real HTTP.
@Suite struct CreateConformanceTests {
    typealias E = ExpectedError

    static let typeMessage = "status must be either MISSING or FOUND"

    /// Every property row of the table: (changes to a valid body, the one answer).
    static let rows: [([(String, JSONValue?)], ExpectedError)] = [
        ([("species", nil)], E(400, "MISSING_VALUE", "Required", field: "species")),
        ([("species", 5)], E(400, "INVALID_FORMAT", "Expected string, received number", field: "species")),
        ([("species", .null)], E(400, "INVALID_FORMAT", "Expected string, received null", field: "species")),
        ([("species", "   ")], E(400, "MISSING_VALUE", "cannot be empty", field: "species")),
        ([("sex", nil)], E(400, "MISSING_VALUE", "Required", field: "sex")),
        ([("sex", true)], E(400, "INVALID_FORMAT", "Expected string, received boolean", field: "sex")),
        ([("sex", "")], E(400, "MISSING_VALUE", "cannot be empty", field: "sex")),
        ([("petName", 1)], E(400, "INVALID_FORMAT", "Expected string, received number", field: "petName")),
        ([("petName", .null)], E(400, "INVALID_FORMAT", "Expected string, received null", field: "petName")),
        ([("breed", [])], E(400, "INVALID_FORMAT", "Expected string, received array", field: "breed")),
        ([("description", ["a": 1])], E(400, "INVALID_FORMAT", "Expected string, received object", field: "description")),
        ([("reward", false)], E(400, "INVALID_FORMAT", "Expected string, received boolean", field: "reward")),
        ([("age", "3")], E(400, "INVALID_FORMAT", "Expected number, received string", field: "age")),
        ([("age", .null)], E(400, "INVALID_FORMAT", "Expected number, received null", field: "age")),
        ([("age", 2.5)], E(400, "INVALID_FORMAT", "Expected integer, received float", field: "age")),
        ([("age", 0)], E(400, "INVALID_FORMAT", "age must be a positive integer", field: "age")),
        ([("age", -3)], E(400, "INVALID_FORMAT", "age must be a positive integer", field: "age")),
        ([("microchipNumber", 123)], E(400, "INVALID_FORMAT", "Expected string, received number", field: "microchipNumber")),
        ([("microchipNumber", "")], E(400, "INVALID_FORMAT", "must contain only digits", field: "microchipNumber")),
        ([("microchipNumber", "12a4")], E(400, "INVALID_FORMAT", "must contain only digits", field: "microchipNumber")),
        ([("locationLatitude", nil)], E(400, "MISSING_VALUE", "Required", field: "locationLatitude")),
        ([("locationLatitude", "1")], E(400, "INVALID_FORMAT", "Expected number, received string", field: "locationLatitude")),
        ([("locationLatitude", 90.5)], E(400, "INVALID_FORMAT", "latitude must be between -90 and 90", field: "locationLatitude")),
        ([("locationLongitude", nil)], E(400, "MISSING_VALUE", "Required", field: "locationLongitude")),
        ([("locationLongitude", .null)], E(400, "INVALID_FORMAT", "Expected number, received null", field: "locationLongitude")),
        ([("locationLongitude", -181)], E(400, "INVALID_FORMAT", "longitude must be between -180 and 180", field: "locationLongitude")),
        ([("email", .null)], E(400, "INVALID_FORMAT", "Expected string, received null", field: "email")),
        ([("email", "owner@example")], E(400, "INVALID_FORMAT", "invalid email format", field: "email")),
        ([("email", "a b@c.de")], E(400, "INVALID_FORMAT", "invalid email format", field: "email")),
        ([("phone", 123)], E(400, "INVALID_FORMAT", "Expected string, received number", field: "phone")),
        ([("phone", "no digits")], E(400, "INVALID_FORMAT", "invalid phone format", field: "phone")),
        ([("lastSeenDate", nil)], E(400, "MISSING_VALUE", "Required", field: "lastSeenDate")),
        ([("lastSeenDate", 20251117)], E(400, "INVALID_FORMAT", "Expected string, received number", field: "lastSeenDate")),
        ([("lastSeenDate", "")], E(400, "INVALID_FORMAT", "invalid date format (expected YYYY-MM-DD)", field: "lastSeenDate")),
        ([("lastSeenDate", "17.11.2025")], E(400, "INVALID_FORMAT", "invalid date format (expected YYYY-MM-DD)", field: "lastSeenDate")),
        ([("lastSeenDate", "2999-01-01")], E(400, "INVALID_FORMAT", "lastSeenDate cannot be in the future", field: "lastSeenDate")),
        ([("status", nil)], E(400, "MISSING_VALUE", typeMessage, field: "status")),
        ([("status", 1)], E(400, "INVALID_FORMAT", typeMessage, field: "status")),
        ([("status", "")], E(400, "INVALID_FORMAT", typeMessage, field: "status")),
        ([("status", "missing")], E(400, "INVALID_FORMAT", typeMessage, field: "status")),
        ([("id", "x")], E(400, "INVALID_FIELD", "id is not a valid field", field: "id")),
        ([("managementPassword", "123456")], E(400, "INVALID_FIELD", "managementPassword is not a valid field", field: "managementPassword")),
        ([("photoUrl", .null)], E(400, "INVALID_FIELD", "photoUrl is not a valid field", field: "photoUrl")),
        ([("createdAt", "x")], E(400, "INVALID_FIELD", "createdAt is not a valid field", field: "createdAt")),
        // Order: a field error wins over an unknown property; schema order decides between fields; the contact rule is last.
        ([("nickname", "Rex"), ("status", "LOST")], E(400, "INVALID_FORMAT", typeMessage, field: "status")),
        ([("status", "LOST"), ("species", nil)], E(400, "MISSING_VALUE", "Required", field: "species")),
        ([("nickname", "Rex"), ("phone", nil)], E(400, "INVALID_FIELD", "nickname is not a valid field", field: "nickname")),
        ([("phone", nil)], E(400, "MISSING_CONTACT", "at least one contact method (email or phone) is required", field: "contact")),
        ([("phone", "   "), ("email", "   ")], E(400, "MISSING_CONTACT", "at least one contact method (email or phone) is required", field: "contact")),
        ([("phone", ""), ("email", "")], E(400, "MISSING_CONTACT", "at least one contact method (email or phone) is required", field: "contact")),
    ]

    @Test(arguments: rows)
    func everyPropertyRowAnswersItsCodeMessageAndField(changes: [(String, JSONValue?)], expected: ExpectedError) async throws {
        try await withConformanceServer { http in
            let answer = try await http.postJSON("/api/v1/announcements", PetSpotHTTP.body(changes))
            expected.check(answer, "\(changes.map(\.0)): \(expected)")
        }
    }

    @Test func trimmingComesBeforeTheRulesAndTheRequestsOwnValuesAreStored() async throws {
        try await withConformanceServer { http in
            let body = PetSpotHTTP.body([
                ("species", "  <b>Dog</b>  "), ("sex", " MALE "), ("petName", ""), ("breed", "<script>x()</script>Beagle "),
                ("microchipNumber", " 123 "), ("email", "  owner@example.com "), ("phone", " 1 "), ("lastSeenDate", " 2025-11-17 "),
                ("description", "<style>p{}</style>Brown"), ("reward", ""),
            ])
            let answer = try await http.postJSON("/api/v1/announcements", body)
            #expect(answer.status == 201)
            let json = try #require(answer.json)
            #expect(json["species"] == "  Dog  ")
            #expect(json["sex"] == " MALE ")
            #expect(json["petName"] == .null)
            #expect(json["breed"] == "Beagle ")
            #expect(json["description"] == "Brown")
            #expect(json["reward"] == .null)
            #expect(json["microchipNumber"] == " 123 ")
            #expect(json["email"] == "  owner@example.com ")
            #expect(json["phone"] == " 1 ")
            #expect(json["lastSeenDate"] == " 2025-11-17 ")
            #expect(answer.contractViolation == nil)
        }
    }

    @Test func successIs201WithTheEighteenKeysThenThePasswordLast() async throws {
        try await withConformanceServer { http in
            let answer = try await http.postJSON("/api/v1/announcements", PetSpotHTTP.body())
            #expect(answer.status == 201)
            let object = try #require(answer.json?.objectValue)
            #expect(object.keys == BundledContractsTestSupport.storedAnnouncementKeys + ["managementPassword"])
            let password = try #require(object["managementPassword"]?.stringValue)
            #expect(Int(password).map { (100_000...999_999).contains($0) } == true)
            #expect(object["id"]?.stringValue?.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
            #expect(object["photoUrl"] == .null)
            #expect(object["breed"] == .null)
            #expect(object["createdAt"]?.stringValue?.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil)
            #expect(object["createdAt"] == object["updatedAt"])
            #expect(answer.header("request-id")?.count == 10)
            let read = try await http.get("/api/v1/announcements/\(object["id"]?.stringValue ?? "")")
            #expect(read.json?.objectValue?.keys == BundledContractsTestSupport.storedAnnouncementKeys)
        }
    }

    @Test func aStoredMicrochipIsConflictButAnotherIsNot() async throws {
        try await withConformanceServer { http in
            #expect(try await http.postJSON("/api/v1/announcements", PetSpotHTTP.body([("microchipNumber", "98765")])).status == 201)
            let second = try await http.postJSON("/api/v1/announcements", PetSpotHTTP.body([("microchipNumber", "98765")]))
            E(409, "CONFLICT", "An entity with this value already exists", field: "microchipNumber").check(second)
            #expect(try await http.postJSON("/api/v1/announcements", PetSpotHTTP.body([("microchipNumber", "98766")])).status == 201)
        }
    }

    @Test func withoutAParsedJSONBodyTheValueIsUndefined() async throws {
        try await withConformanceServer { http in
            for type in ["text/plain", "application/x-www-form-urlencoded", nil] as [String?] {
                let answer = try await http.createRaw(PetSpotHTTP.body().serialized(), contentType: type)
                E(400, "MISSING_VALUE", "Required").check(answer, "\(type ?? "no Content-Type")")
            }
            // An empty body with the JSON type counts as {}.
            E(400, "MISSING_VALUE", "Required", field: "species").check(try await http.createRaw(""))
        }
    }

    @Test(arguments: [("[]", "array"), ("[1, 2]", "array")])
    func anArrayRootIsExpectedObject(text: String, type: String) async throws {
        try await withConformanceServer { http in
            E(400, "INVALID_FORMAT", "Expected object, received \(type)").check(try await http.createRaw(text))
        }
    }

    @Test func theBodyParsersAnswersHaveNoRequestID() async throws {
        try await withConformanceServer { http in
            let big = PetSpotHTTP.body([("description", .string(String(repeating: "x", count: 102_400)))])
            let tooLarge = try await http.postJSON("/api/v1/announcements", big)
            E(413, "PAYLOAD_TOO_LARGE", "Request payload exceeds maximum size limit (100KB)").check(tooLarge, requestIDHeader: false)
            // The contract's answers for the real server's 500s (see known-defects.json).
            E(400, "INVALID_FORMAT", "Malformed JSON in request body").check(try await http.createRaw("{\"species\": "), requestIDHeader: false)
            E(400, "INVALID_FORMAT", "unsupported charset \"LATIN1\"")
                .check(try await http.createRaw("{}", contentType: "application/json; charset=latin1"), requestIDHeader: false)
            E(400, "INVALID_FORMAT", "Expected object, received string").check(try await http.createRaw("\"x\""))
            E(400, "INVALID_FORMAT", "Expected object, received number").check(try await http.createRaw("1"))
        }
    }

    @Test func withKnownDefectsTheMockAnswersLikeTheRealServer() async throws {
        try await withConformanceServer(knownDefects: true) { http in
            let internalError = E(500, "INTERNAL_SERVER_ERROR", "Internal server error")
            for (text, type) in [("{\"species\": ", "application/json"), ("\"x\"", "application/json"), ("1", "application/json"),
                                 ("{}", "application/json; charset=latin1")] {
                internalError.check(try await http.createRaw(text, contentType: type), requestIDHeader: false, "\(text) \(type)")
            }
            // Everything else is unchanged.
            E(400, "INVALID_FORMAT", "Expected object, received array").check(try await http.createRaw("[]"))
            #expect(try await http.postJSON("/api/v1/announcements", PetSpotHTTP.body()).status == 201)
        }
    }
}
