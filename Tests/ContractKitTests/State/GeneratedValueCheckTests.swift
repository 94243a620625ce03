import Foundation
import Testing

@testable import ContractKit

/// Each `x-state.generate` kind has one checker; each rejects a value that differs from what it states in just one way.
@Suite struct GeneratedValueCheckTests {
    static let answered = Date(timeIntervalSince1970: 1_768_219_200)  // 2026-01-12T12:00:00Z
    static let context = GeneratedValueContext(serverTime: answered)

    @Test func uuidV4ChecksTheVersionAndVariantNibbles() {
        #expect(StateGenerator.uuidV4.problem(with: "7c9e6679-7425-40de-944b-e07fc1f90ae7", context: Self.context) == nil)
        for bad in ["7c9e6679-7425-10de-944b-e07fc1f90ae7",  // version 1
                    "7c9e6679-7425-40de-c44b-e07fc1f90ae7",  // variant c (Microsoft)
                    "7C9E6679-7425-40DE-944B-E07FC1F90AE7",  // upper case
                    "7c9e6679742540de944be07fc1f90ae7", "7c9e6679-7425-40de-944b-e07fc1f90ae", ""] {
            let problem = StateGenerator.uuidV4.problem(with: .string(bad), context: Self.context)
            #expect(problem?.expected.contains("version 4") == true, "\(bad)")
        }
        #expect(StateGenerator.uuidV4.problem(with: 7, context: Self.context) != nil)
    }

    @Test func digitsSixIsSixDigitsFromOneHundredThousand() {
        for good in ["100000", "999999", "482910"] { #expect(StateGenerator.digits6.problem(with: .string(good), context: Self.context) == nil, "\(good)") }
        for bad: JSONValue in ["1234567", "12345", "012345", "12345a", "１２３４５６", 123456] {
            #expect(StateGenerator.digits6.problem(with: bad, context: Self.context) != nil, "\(bad)")
        }
    }

    @Test func nowISOMillisecondsIsTheFormatAndCloseToTheServersClock() {
        let now = StateGenerator.nowISOMilliseconds
        #expect(now.problem(with: "2026-01-12T12:00:00.000Z", context: Self.context) == nil)
        // A slow machine: minutes off still pass.
        #expect(now.problem(with: "2026-01-12T12:04:59.999Z", context: Self.context) == nil)
        #expect(now.problem(with: "2026-01-12T11:55:00.000Z", context: Self.context) == nil)
        for format in ["2026-01-12T12:00:00Z", "2026-01-12T12:00:00.000+00:00", "2026-01-12 12:00:00.000Z", "2026-02-30T12:00:00.000Z",
                       "2026-01-12T24:00:00.000Z", "1768219200000"] {
            #expect(now.problem(with: .string(format), context: Self.context)?.expected.contains("ISO 8601") == true, "\(format)")
        }
        let hourOff = now.problem(with: "2026-01-12T13:00:00.000Z", context: Self.context)
        #expect(hourOff?.expected.contains("within 5 minutes") == true)
        #expect(hourOff?.got.contains("1 h 0 min later") == true, "\(String(describing: hourOff))")
        #expect(now.problem(with: "2026-01-11T12:00:00.000Z", context: Self.context)?.got.contains("1 d 0 h earlier") == true)
        // Only the form: what two answers made at different moments share.
        #expect(now.hasForm("2020-01-01T00:00:00.000Z", context: Self.context))
        #expect(!now.hasForm("2020-01-01T00:00:00Z", context: Self.context))
    }

    @Test func theServersClockIsItsDateHeader() throws {
        let date = try #require(HTTPDate.parse("Mon, 12 Jan 2026 12:00:00 GMT"))
        #expect(date == Self.answered)
        #expect(HTTPDate.parse("Monday, 12-Jan-26 12:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Mon, 32 Jan 2026 12:00:00 GMT") == nil)
        let context = GeneratedValueContext(dateHeader: "Mon, 12 Jan 2026 12:00:00 GMT", received: Date(timeIntervalSince1970: 0))
        #expect(context.serverTime == Self.answered)
        #expect(GeneratedValueContext(dateHeader: "garbage", received: Self.answered).serverTime == Self.answered)
    }

    static let token = TokenDeclaration(claims: ["userId"], lifetime: 3600, secret: "spotcheck-mock-jwt-secret")
    static let userId = "7c9e6679-7425-40de-944b-e07fc1f90ae7"

    /// A token made here, changed in the one way a test names.
    static func jwt(header: String = #"{"alg":"HS256","typ":"JWT"}"#, claims: String? = nil, iat: Int = 1_768_219_200, lifetime: Int = 3600,
                    secret: String = "spotcheck-mock-jwt-secret") -> JSONValue {
        let payload = claims ?? #"{"userId":"\#(userId)","iat":\#(iat),"exp":\#(iat + lifetime)}"#
        let signed = base64URL(Array(header.utf8)) + "." + base64URL(Array(payload.utf8))
        return .string(signed + "." + base64URL(HMACSHA256.mac(key: Array(secret.utf8), message: Array(signed.utf8))))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static var tokenContext: GeneratedValueContext {
        GeneratedValueContext(serverTime: answered, record: JSONObject([("userId", .string(userId))]), token: token)
    }

    @Test func jwtHS256ChecksHeaderClaimsLifetimeAndSignature() {
        let check = StateGenerator.jwtHS256
        #expect(check.problem(with: Self.jwt(), context: Self.tokenContext) == nil)
        let cases: [(String, JSONValue, String)] = [
            ("lifetime", Self.jwt(lifetime: 7200), "exp - iat = 3600"),
            ("signature", Self.jwt(secret: "another secret"), "signature"),
            ("algorithm", Self.jwt(header: #"{"alg":"HS512","typ":"JWT"}"#), "header"),
            ("claims", Self.jwt(claims: #"{"userId":"\#(Self.userId)","role":"admin","iat":1768219200,"exp":1768222800}"#), "the claims"),
            ("claim value", Self.jwt(claims: #"{"userId":"someone-else","iat":1768219200,"exp":1768222800}"#), "equal to the answer's userId"),
            ("issued long ago", Self.jwt(iat: 1_768_219_200 - 86_400), "iat at the time of the answer"),
            ("not a JWT", "abc.def", "three base64url parts"),
            ("padded", .string(Self.jwt().stringValue! + "="), "three base64url parts"),
        ]
        for (label, value, expected) in cases {
            let problem = check.problem(with: value, context: Self.tokenContext)
            #expect(problem?.expected.contains(expected) == true, "\(label): \(String(describing: problem))")
        }
        // Without a stated secret the signature is not checked; everything else still is.
        var unstated = Self.tokenContext
        unstated.token = TokenDeclaration(claims: ["userId"], lifetime: 3600, secret: nil)
        #expect(check.problem(with: Self.jwt(secret: "the server's own JWT_SECRET"), context: unstated) == nil)
        #expect(check.problem(with: Self.jwt(lifetime: 60), context: unstated) != nil)
    }

    @Test func theGeneratedMembersOfAnAnswerAreTheOnesItsContractMakes() throws {
        let contracts = try ContractSet.load(from: ContractSet.bundledDirectory)
        let create = try #require(contracts.contract(id: "createAnnouncement"))
        let members = GeneratedMembers.of(create, in: contracts, status: 201).map(\.pointer)
        #expect(members == ["/id", "/managementPassword", "/createdAt", "/updatedAt"])
        // A refusal and a read answer nothing freshly made (a read's values may be years old).
        #expect(GeneratedMembers.of(create, in: contracts, status: 400).isEmpty)
        #expect(GeneratedMembers.of(try #require(contracts.contract(id: "getAnnouncement")), in: contracts, status: 200).isEmpty)
        // A response's x-generate counts too.
        #expect(GeneratedMembers.of(try #require(contracts.contract(id: "health")), in: contracts, status: 200).map(\.pointer) == ["/timestamp"])
        let body: JSONValue = ["id": "7c9e6679-7425-10de-944b-e07fc1f90ae7", "managementPassword": "123456",
                               "createdAt": "2026-01-12T12:00:00.000Z", "updatedAt": "2026-01-12T12:00:00.000Z"]
        let problems = GeneratedMembers.problems(in: body, contract: create, contracts: contracts, status: 201, context: Self.context)
        #expect(problems.map(\.pointer) == ["/id"])
    }
}
