import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing

/// Every create row of petspot-api.md, through a real HTTP client and the real server.
@Suite struct BundledContractsHTTPCreateTests {
    typealias S = BundledContractsTestSupport

    @Test func createAnswers201WithEveryFieldThePasswordAndTimestamps() async throws {
        try await withPetSpotMock { mock in
            let answer = try await PetSpotHTTP(mock).postJSON("/api/v1/announcements", S.createBody([("phone", nil), ("breed", nil)]))
            #expect(answer.status == 201)
            #expect(answer.contractViolation == nil)
            #expect(answer.header("request-id")?.wholeMatch(of: /[A-Za-z0-9]{10}/) != nil)
            #expect(answer.header("Access-Control-Allow-Origin") == "*")
            let json = try #require(answer.json?.objectValue)
            #expect(json.keys == BundledContractsTestSupport.storedAnnouncementKeys + ["managementPassword"])
            #expect(json["breed"] == .null)
            #expect(json["phone"] == .null)
            #expect(json["photoUrl"] == .null)
            #expect(json["petName"] == "Rex")
            let created = try #require(json["createdAt"]?.stringValue)
            #expect(created.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil)
            #expect(json["updatedAt"]?.stringValue == created)
        }
    }

    @Test(arguments: [
        (#"{"id": "x", "species": "DOG"}"#, 400, "MISSING_VALUE", "sex"),
        (#"{"managementPassword": "123456"}"#, 400, "MISSING_VALUE", "species"),
        (#"{}"#, 400, "MISSING_VALUE", "species"),
        (#"{"species": "  "}"#, 400, "MISSING_VALUE", "species"),
        (#"{"species": "DOG"}"#, 400, "MISSING_VALUE", "sex"),
        (#"{"species": "DOG", "sex": "M", "locationLatitude": 95}"#, 400, "INVALID_FORMAT", "locationLatitude"),
        (#"{"species": "DOG", "sex": "M", "age": 0}"#, 400, "INVALID_FORMAT", "age"),
        (#"{"species": "DOG", "sex": "M", "microchipNumber": "12-34"}"#, 400, "INVALID_FORMAT", "microchipNumber"),
        (#"{"species": "DOG", "sex": "M", "locationLatitude": 1, "locationLongitude": 200}"#, 400, "INVALID_FORMAT", "locationLongitude"),
        (#"{"species": "DOG", "sex": "M", "locationLatitude": 1, "locationLongitude": 2, "email": "x@y"}"#, 400, "INVALID_FORMAT", "email"),
        (#"{"species": "DOG", "sex": "M", "locationLatitude": 1, "locationLongitude": 2, "phone": "abc"}"#, 400, "INVALID_FORMAT", "phone"),
        (#"{"species": "DOG", "sex": "M", "locationLatitude": 1, "locationLongitude": 2, "phone": "1"}"#, 400, "MISSING_VALUE", "lastSeenDate"),
        (#"{"species": "DOG", "sex": "M", "locationLatitude": 1, "locationLongitude": 2, "phone": "1", "lastSeenDate": "2999-01-01"}"#, 400, "INVALID_FORMAT", "lastSeenDate"),
        (#"{"species": "DOG", "sex": "M", "locationLatitude": 1, "locationLongitude": 2, "phone": "1", "lastSeenDate": "2025-01-01"}"#, 400, "MISSING_VALUE", "status"),
        (#"{"species": "DOG", "sex": "M", "locationLatitude": 1, "locationLongitude": 2, "phone": "1", "lastSeenDate": "2025-01-01", "status": "ACTIVE"}"#, 400, "INVALID_FORMAT", "status"),
        (#"{"species": "DOG", "sex": "M", "locationLatitude": 1, "locationLongitude": 2, "email": "", "lastSeenDate": "2025-01-01", "status": "FOUND"}"#, 400, "MISSING_CONTACT", "contact"),
        (#"{"species": "DOG", "sex": "M", "locationLatitude": 1, "locationLongitude": 2, "phone": "1", "lastSeenDate": "2025-01-01", "status": "FOUND"}"#, 201, nil, nil),
    ] as [(String, Int, String?, String?)])
    func eachFieldRuleAnswersItsCodeAndField(body: String, status: Int, code: String?, field: String?) async throws {
        try await withPetSpotMock { mock in
            let answer = try await PetSpotHTTP(mock).send(
                "POST", "/api/v1/announcements", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(answer.status == status)
            #expect(answer.errorCode == code)
            #expect(answer.errorField == field)
            #expect(answer.contractViolation == nil)
            if status >= 400 {
                #expect(answer.json?["error"]?["requestId"]?.stringValue == answer.header("request-id"))
                #expect(answer.json?["error"]?["message"]?.stringValue?.isEmpty == false)
            }
        }
    }

    @Test func aDuplicateMicrochipIs409() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            _ = try await http.create()
            let second = try await http.postJSON("/api/v1/announcements", S.createBody([("petName", "Other")]))
            #expect(second.status == 409)
            #expect(second.errorCode == "CONFLICT")
            #expect(second.errorField == "microchipNumber")
        }
    }

    @Test func aJSONBodyOver100KBIs413AndOneOfExactly100KBIsRead() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            let base = S.createBody([("description", "")]).data()
            let padding = 102_400 - base.count
            let exact = S.createBody([("description", .string(String(repeating: "a", count: padding)))]).data()
            #expect(exact.count == 102_400)
            let fits = try await http.send("POST", "/api/v1/announcements", headers: ["Content-Type": "application/json"], body: exact)
            #expect(fits.status == 201)
            let over = S.createBody([("description", .string(String(repeating: "a", count: padding + 1)))]).data()
            let tooLarge = try await http.send("POST", "/api/v1/announcements", headers: ["Content-Type": "application/json"], body: over)
            #expect(tooLarge.status == 413)
            #expect(tooLarge.errorCode == "PAYLOAD_TOO_LARGE")
            // The body parser answers before the request id exists.
            #expect(tooLarge.header("request-id") == nil)
            #expect(tooLarge.json?["error"]?["requestId"] == "unknown")
            #expect(tooLarge.contractViolation == nil)
            #expect(await mock.recordCount() == 1)
        }
    }

    @Test func textFieldsAreStoredWithoutHTML() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            let (id, _) = try await http.create(S.createBody([("description", "<img src=x onerror=alert(1)>Calm<script>document.cookie</script>")]))
            #expect(try await http.get("/api/v1/announcements/\(id)").json?["description"] == "Calm")
        }
    }

    @Test func theSeedMakesIdsAndPasswordsReproducibleAcrossServers() async throws {
        let first = try await withPetSpotMock(seed: 99) { try await PetSpotHTTP($0).create() }
        let second = try await withPetSpotMock(seed: 99) { try await PetSpotHTTP($0).create() }
        #expect(first == second)
    }
}
