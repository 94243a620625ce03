import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

@Suite struct BundledContractsCreateTests {
    typealias S = BundledContractsTestSupport

    @Test func validBodyAnswers201WithTheStoredAnnouncementAndAPassword() async throws {
        let backend = try S.backend()
        let response = await backend.respond(to: S.createRequest(S.createBody()))
        #expect(response.status == .created)
        #expect(response.contractViolation == nil)
        let body = try #require(response.json?.objectValue)
        #expect(body.keys == BundledContractsTestSupport.storedAnnouncementKeys + ["managementPassword"])
        let id = try #require(body["id"]?.stringValue)
        #expect(id.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
        let password = try #require(body["managementPassword"]?.stringValue)
        #expect(Int(password).map { (100_000...999_999).contains($0) } == true)
        #expect(body["photoUrl"] == .null)
        #expect(body["createdAt"] == "2025-11-20T12:00:00.000Z")
        #expect(body["updatedAt"] == "2025-11-20T12:00:00.000Z")
        #expect(body["locationLatitude"] == 52.2297)
        #expect(body["age"] == 3)
        #expect(response.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
        #expect(backend.store.count == 1)
    }

    @Test func absentOptionalFieldsComeBackAsNull() async throws {
        let backend = try S.backend()
        let body = S.createBody([("petName", nil), ("breed", nil), ("age", nil), ("description", nil), ("microchipNumber", nil), ("phone", nil), ("reward", nil)])
        let response = await backend.respond(to: S.createRequest(body))
        #expect(response.status == .created)
        let json = try #require(response.json)
        for key in ["petName", "breed", "age", "description", "microchipNumber", "phone", "reward", "photoUrl"] {
            #expect(json[key] == .null, "\(key)")
        }
        #expect(response.contractViolation == nil)
    }

    @Test func everyResponseCarriesARequestIDThatTheEnvelopeRepeats() async throws {
        let backend = try S.backend()
        let response = await backend.respond(to: S.createRequest(S.createBody([("species", nil)])))
        let header = try #require(response.headers.first(name: "request-id"))
        #expect(header.wholeMatch(of: /[A-Za-z0-9]{10}/) != nil)
        #expect(response.json?["error"]?["requestId"]?.stringValue == header)
    }

    @Test func aNonJSONContentTypeLeavesTheBodyUndefined() async throws {
        let backend = try S.backend()
        for type in ["text/plain", "application/x-www-form-urlencoded", nil] as [String?] {
            var request = S.createRequest(S.createBody())
            request.headers.remove(name: "Content-Type")
            if let type { request.headers.add(name: "Content-Type", value: type) }
            let response = await backend.respond(to: request)
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "MISSING_VALUE")
            #expect(response.errorMessage == "Required")
            #expect(response.errorField == nil)
            #expect(response.contractViolation == nil)
        }
    }

    @Test func jsonContentTypeWithParametersAndOtherCaseIsJSON() async throws {
        let backend = try S.backend()
        var request = S.createRequest(S.createBody())
        request.headers.replaceOrAdd(name: "Content-Type", value: "Application/JSON; charset=utf-8")
        #expect(await backend.respond(to: request).status == .created)
    }

    @Test func anEmptyJSONBodyIsMissingSpecies() async throws {
        let backend = try S.backend()
        let request = MockRequest(method: .POST, uri: "/api/v1/announcements", headers: S.jsonHeaders())
        let response = await backend.respond(to: request)
        #expect(response.errorCode == "MISSING_VALUE")
        #expect(response.errorField == "species")
    }

    @Test(arguments: ["[]", "\"text\"", "42", "null", "[{\"species\": \"DOG\"}]"])
    func aRootThatIsNotAnObjectIsInvalidFormat(body: String) async throws {
        let backend = try S.backend()
        let request = MockRequest(method: .POST, uri: "/api/v1/announcements", headers: S.jsonHeaders(), body: ByteBuffer(string: body))
        let response = await backend.respond(to: request)
        #expect(response.status == .badRequest)
        #expect(response.errorCode == "INVALID_FORMAT")
        #expect(response.errorField == nil)
        #expect(response.contractViolation == nil)
    }

    @Test(arguments: ["{", "{\"species\": }", "{'species': 'DOG'}", "{\"a\":1}}", "\u{FF}\u{FE}"])
    func malformedJSONIsInvalidFormatNot500(body: String) async throws {
        let backend = try S.backend()
        let request = MockRequest(method: .POST, uri: "/api/v1/announcements", headers: S.jsonHeaders(), body: ByteBuffer(string: body))
        let response = await backend.respond(to: request)
        #expect(response.status == .badRequest)
        #expect(response.errorCode == "INVALID_FORMAT")
        #expect(response.errorMessage == "Malformed JSON in request body")
        // The body parser answers before the request id exists.
        #expect(response.headers.first(name: "request-id") == nil)
        #expect(response.json?["error"]?["requestId"] == "unknown")
        #expect(response.contractViolation == nil)
    }

    @Test(arguments: ["id", "managementPassword", "photoUrl", "createdAt", "updatedAt", "nickname"])
    func unknownAndServerOwnedPropertiesAreInvalidField(name: String) async throws {
        let backend = try S.backend()
        let response = await backend.respond(to: S.createRequest(S.createBody([(name, "x")])))
        #expect(response.status == .badRequest)
        #expect(response.errorCode == "INVALID_FIELD")
        #expect(response.errorField == name)
    }

    @Test func fieldErrorsAreReportedBeforeUnknownProperties() async throws {
        let backend = try S.backend()
        let response = await backend.respond(to: S.createRequest(["zzz": 1, "status": "LOST"]))
        #expect(response.errorCode == "MISSING_VALUE")
        #expect(response.errorField == "species")
        let unknownOnly = await backend.respond(to: S.createRequest(S.createBody([("zzz", 1), ("email", ""), ("phone", nil)])))
        #expect(unknownOnly.errorCode == "INVALID_FIELD")
        #expect(unknownOnly.errorMessage == "zzz is not a valid field")
    }

    @Test(arguments: ["species", "sex", "locationLatitude", "locationLongitude", "lastSeenDate", "status"])
    func aMissingRequiredFieldIsMissingValue(name: String) async throws {
        let backend = try S.backend()
        let response = await backend.respond(to: S.createRequest(S.createBody([(name, nil)])))
        #expect(response.status == .badRequest)
        #expect(response.errorCode == "MISSING_VALUE")
        #expect(response.errorField == name)
        #expect(response.contractViolation == nil)
    }

    @Test(arguments: ["species", "sex"])
    func aBlankRequiredStringIsMissingValue(name: String) async throws {
        let backend = try S.backend()
        for blank in ["", "   ", "\t\n"] {
            let response = await backend.respond(to: S.createRequest(S.createBody([(name, .string(blank))])))
            #expect(response.errorCode == "MISSING_VALUE", "\(name)=\(blank.debugDescription)")
            #expect(response.errorField == name)
        }
    }

    @Test(arguments: [
        ("status", JSONValue("LOST")), ("status", "CLOSED"), ("status", "missing"), ("locationLatitude", 90.5), ("locationLatitude", -91),
        ("locationLongitude", 180.01), ("locationLongitude", -181), ("locationLatitude", "52.1"), ("email", "owner at example.com"),
        ("email", "a b@c.d"), ("email", "a@b"), ("phone", "no digits"), ("age", 0), ("age", -2), ("age", 2.5), ("age", "3"),
        ("microchipNumber", "12a45"), ("lastSeenDate", "18-11-2025"), ("lastSeenDate", "2025-11-21"),
        ("lastSeenDate", 20251118), ("species", 7), ("petName", 5), ("reward", true),
    ] as [(String, JSONValue)])
    func aWrongTypeOrRuleIsInvalidFormat(name: String, value: JSONValue) async throws {
        let backend = try S.backend()
        let response = await backend.respond(to: S.createRequest(S.createBody([(name, value)])))
        #expect(response.status == .badRequest)
        #expect(response.errorCode == "INVALID_FORMAT")
        #expect(response.errorField == name)
        #expect(response.contractViolation == nil)
    }

    @Test func todayIsNotInTheFuture() async throws {
        let backend = try S.backend()
        let response = await backend.respond(to: S.createRequest(S.createBody([("lastSeenDate", "2025-11-20")])))
        #expect(response.status == .created)
    }

    @Test func theFirstProblemInSchemaPropertyOrderWins() async throws {
        let backend = try S.backend()
        // breed comes before sex, species before age, lastSeenDate (future) before status.
        let cases: [(JSONValue, String, String)] = [
            (S.createBody([("breed", 5), ("sex", nil)]), "INVALID_FORMAT", "breed"),
            (S.createBody([("species", nil), ("age", -1)]), "MISSING_VALUE", "species"),
            (S.createBody([("lastSeenDate", "2030-01-01"), ("status", "LOST")]), "INVALID_FORMAT", "lastSeenDate"),
            (S.createBody([("status", nil), ("email", nil), ("phone", nil)]), "MISSING_VALUE", "status"),
            (S.createBody([("email", "bad"), ("phone", "no digits")]), "INVALID_FORMAT", "email"),
        ]
        for (body, code, field) in cases {
            let response = await backend.respond(to: S.createRequest(body))
            #expect(response.errorCode == code)
            #expect(response.errorField == field)
        }
    }

    @Test func withoutEmailOrPhoneTheContactRuleFailsLast() async throws {
        let backend = try S.backend()
        let response = await backend.respond(to: S.createRequest(S.createBody([("email", nil), ("phone", nil)])))
        #expect(response.status == .badRequest)
        #expect(response.errorCode == "MISSING_CONTACT")
        #expect(response.errorField == "contact")
        #expect(response.contractViolation == nil)
    }

    @Test func aBlankEmailCountsAsAbsentForTheContactRule() async throws {
        let backend = try S.backend()
        let blank = await backend.respond(to: S.createRequest(S.createBody([("email", ""), ("phone", nil)])))
        #expect(blank.errorCode == "MISSING_CONTACT")
        let withPhone = await backend.respond(to: S.createRequest(S.createBody([("email", ""), ("phone", "123")])))
        #expect(withPhone.status == .created)
        // Stored as sent (`data.email ?? null`): blank, not null.
        #expect(withPhone.json?["email"] == "")
        let emailOnly = await backend.respond(to: S.createRequest(S.createBody([("phone", nil), ("microchipNumber", nil)])))
        #expect(emailOnly.status == .created)
    }

    @Test func aDuplicateMicrochipIsConflict() async throws {
        let backend = try S.backend()
        #expect(await backend.respond(to: S.createRequest(S.createBody())).status == .created)
        let second = await backend.respond(to: S.createRequest(S.createBody()))
        #expect(second.status == .conflict)
        #expect(second.errorCode == "CONFLICT")
        #expect(second.errorField == "microchipNumber")
        #expect(second.contractViolation == nil)
        #expect(backend.store.count == 1)
    }

    @Test func htmlIsStrippedFromTextFieldsAndScriptsLoseTheirContent() async throws {
        let backend = try S.backend()
        let body = S.createBody([
            ("petName", "<b>Rex</b>"), ("description", "<p>Brown <i>collar</i></p><script>alert('x')</script> friendly"),
            ("reward", "<SCRIPT type=\"text/javascript\">steal()</SCRIPT>100 PLN"), ("species", "  DOG  "),
        ])
        let response = await backend.respond(to: S.createRequest(body))
        #expect(response.status == .created)
        let json = try #require(response.json)
        #expect(json["petName"] == "Rex")
        #expect(json["description"] == "Brown collar friendly")
        #expect(json["reward"] == "100 PLN")
        // Stored as sent: sanitized, surrounding spaces kept.
        #expect(json["species"] == "  DOG  ")
    }

    @Test func theSameSeedGivesTheSameIdsPasswordsAndRequestIDs() async throws {
        func run(seed: UInt64) async throws -> [String] {
            let backend = try S.backend(seed: seed)
            let response = await backend.respond(to: S.createRequest(S.createBody()))
            return [response.json?["id"]?.stringValue, response.json?["managementPassword"]?.stringValue, response.headers.first(name: "request-id")]
                .compactMap { $0 }
        }
        let a = try await run(seed: 1)
        let b = try await run(seed: 1)
        let c = try await run(seed: 2)
        #expect(a.count == 3)
        #expect(a == b)
        #expect(a != c)
    }

    @Test func oversizedJSONIsPayloadTooLargeButAnOversizedNonJSONBodyCountsAsEmpty() async throws {
        let backend = try S.backend()
        let head = MockRequest(method: .POST, uri: "/api/v1/announcements", headers: S.jsonHeaders())
        #expect(backend.bodyLimit(for: head) == 102_400)
        let tooLarge = await backend.respondToOversizedBody(head)
        #expect(tooLarge.status == .payloadTooLarge)
        #expect(tooLarge.errorCode == "PAYLOAD_TOO_LARGE")
        #expect(tooLarge.contractViolation == nil)
        let plain = MockRequest(method: .POST, uri: "/api/v1/announcements", headers: ["Content-Type": "text/plain"])
        let empty = await backend.respondToOversizedBody(plain)
        #expect(empty.errorCode == "MISSING_VALUE")
        #expect(empty.errorField == nil)
        #expect(tooLarge.headers.first(name: "request-id") == nil)
        #expect(tooLarge.json?["error"]?["requestId"] == "unknown")
    }
}
