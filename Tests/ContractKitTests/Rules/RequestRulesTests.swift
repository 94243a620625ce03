import Foundation
import Testing

@testable import ContractKit

/// The compiled request rules (`x-errors`, `x-trim`, `x-check`, `x-parse`, …): what they answer, and the lint problems
/// a contract's rule keywords can have.
@Suite struct RequestRulesTests {
    static let newer = ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")
    static let today = RuleContext(today: "2026-01-12")

    /// fb9f56a's users body (`schemas/UserCredentials.json`), the same for register and login.
    func usersRules(_ id: String = "registerUser") throws -> BodyRules {
        let set = try Self.newerContracts.get()
        return try #require(set.requestRules[id]?.body)
    }

    /// Loaded once: the parameterized cases each loading the folder twice cost seconds of both cores at start-up.
    static let newerContracts = Result { () throws(ContractLoadError) in try ContractSet.load(from: newer) }

    struct Answer: Equatable, CustomStringConvertible {
        var code: String, message: String, field: String?
        var description: String { "\(code) \(field ?? "-") \"\(message)\"" }
    }

    static let valid: JSONObject = ["email": "owner@example.com", "password": "correct horse"]

    static func body(_ changes: [(String, JSONValue?)]) -> JSONValue {
        var object = valid
        for (key, value) in changes { object[key] = value }
        return .object(object)
    }

    static let usersCases: [(String, JSONValue?, Answer?)] = [
        ("valid", body([]), nil),
        ("padded email and password pass: trimmed to check", body([("email", "  a@b.co  "), ("password", "  12345678  ")]), nil),
        ("no JSON body", nil, Answer(code: "MISSING_VALUE", message: "Required", field: "email")),
        ("array root", .array([]), Answer(code: "INVALID_FORMAT", message: "Expected object, received array", field: "email")),
        ("string root", "x", Answer(code: "INVALID_FORMAT", message: "Expected object, received string", field: "email")),
        ("email missing", body([("email", nil)]), Answer(code: "MISSING_VALUE", message: "Required", field: "email")),
        ("password missing", body([("password", nil)]), Answer(code: "MISSING_VALUE", message: "Required", field: "password")),
        ("both missing: email first", .object([:]), Answer(code: "MISSING_VALUE", message: "Required", field: "email")),
        ("email null", body([("email", .null)]), Answer(code: "INVALID_FORMAT", message: "Expected string, received null", field: "email")),
        ("password number", body([("password", 12_345_678)]), Answer(code: "INVALID_FORMAT", message: "Expected string, received number", field: "password")),
        ("empty email is the length rule", body([("email", "")]), Answer(code: "INVALID_FORMAT", message: "email must be 3-254 characters long", field: "email")),
        ("blank email", body([("email", "     ")]), Answer(code: "INVALID_FORMAT", message: "email must be 3-254 characters long", field: "email")),
        ("email of 255", body([("email", .string(String(repeating: "a", count: 243) + "@example.com"))]),
         Answer(code: "INVALID_FORMAT", message: "email must be 3-254 characters long", field: "email")),
        ("email of 254", body([("email", .string(String(repeating: "a", count: 242) + "@example.com"))]), nil),
        ("email without domain", body([("email", "owner@example")]), Answer(code: "INVALID_FORMAT", message: "email format is invalid", field: "email")),
        ("email with a space", body([("email", "ow ner@example.com")]), Answer(code: "INVALID_FORMAT", message: "email format is invalid", field: "email")),
        ("password of 7", body([("password", "1234567")]), Answer(code: "INVALID_FORMAT", message: "password must be 8-128 characters long", field: "password")),
        ("password of 7 padded", body([("password", "   1234567   ")]), Answer(code: "INVALID_FORMAT", message: "password must be 8-128 characters long", field: "password")),
        ("password of 129", body([("password", .string(String(repeating: "p", count: 129)))]),
         Answer(code: "INVALID_FORMAT", message: "password must be 8-128 characters long", field: "password")),
        ("password of 128", body([("password", .string(String(repeating: "p", count: 128)))]), nil),
        ("unknown key", body([("name", "Ann")]), Answer(code: "INVALID_FIELD", message: "name is not a valid field", field: "name")),
        ("a field error wins over an unknown key", body([("name", "Ann"), ("password", "short")]),
         Answer(code: "INVALID_FORMAT", message: "password must be 8-128 characters long", field: "password")),
    ]

    @Test(arguments: usersCases)
    func usersBodyAnswersLikeFb9f56a(_ name: String, _ body: JSONValue?, _ expected: Answer?) throws {
        for id in ["registerUser", "loginUser"] {
            let refusal = try usersRules(id).firstRefusal(in: body, context: Self.today)
            #expect(refusal.map { Answer(code: $0.code, message: $0.message, field: $0.field) } == expected, "\(id): \(name)")
            #expect(refusal?.status ?? 400 == 400)
            #expect(refusal?.assumption == nil, "\(name): every users rule is stated")
        }
    }

    @Test func usersEmailIsKeyedLowercaseAndStoredAsSent() throws {
        let email = try #require(try usersRules().property("email"))
        #expect(email.storage.key == .lowercase)
        #expect(email.storage.stored(" Ann@Example.com ", sanitizer: { _, text in text }) == " Ann@Example.com ")
    }

    @Test func trimmingIsJavaScriptsAndLengthsAreUTF16() {
        #expect(JavaScriptText.trim("\u{FEFF}\u{3000} a \u{2028}\n") == "a")
        // U+0085 and U+180E are white space to Foundation, not to JavaScript's trim.
        #expect(JavaScriptText.trim("\u{85}a\u{180E}") == "\u{85}a\u{180E}")
        #expect(JavaScriptText.length("🐶é") == 3)
        #expect(JavaScriptNumber.parseFloat("\u{3000}12abc") == 12)
        #expect(JavaScriptNumber.parseFloat("abc") == nil)
    }

    @Test func theListQueryFillsTheDefaultAndChecksInOrder() throws {
        let set = try ContractSet.load(from: ContractSet.bundledDirectory)
        let rules = try #require(set.requestRules["listAnnouncements"]?.query)
        func answer(_ query: String) -> String {
            let sent = QueryRules.firstValues(in: query)
            switch rules.evaluate({ sent[$0] }, context: Self.today) {
            case .success(let values): return "ok \(values.keys.sorted().map { "\($0)=\(values[$0]!.serialized())" }.joined(separator: " "))"
            case .failure(let refusal): return "\(refusal.code) \(refusal.field ?? "-") \(refusal.message)"
            }
        }
        #expect(answer("") == "ok range=5")
        #expect(answer("lat=&lng=&range=") == "ok range=5")
        #expect(answer("lat=12abc&lng=1&range=2") == "ok lat=12 lng=1 range=2")
        #expect(answer("lat=abc") == "INVALID_PARAMETER lat Parameter 'lat' must be a valid number")
        #expect(answer("lat=91&lng=x") == "INVALID_PARAMETER lat Parameter 'lat' must be between -90 and 90")
        #expect(answer("lng=-181") == "INVALID_PARAMETER lng Parameter 'lng' must be between -180 and 180")
        #expect(answer("range=Infinity") == "INVALID_PARAMETER range Parameter 'range' must be an integer")
        #expect(answer("range=0") == "INVALID_PARAMETER range Parameter 'range' must be greater than zero")
        #expect(answer("range=-0") == "INVALID_PARAMETER range Parameter 'range' must be greater than zero")
        #expect(answer("range=-3") == "INVALID_PARAMETER range Parameter 'range' must be a positive number")
        // Every value rule comes before the x-requires rules.
        #expect(answer("lat=1&range=1.5") == "INVALID_PARAMETER range Parameter 'range' must be an integer")
        #expect(answer("lat=1") == "INVALID_PARAMETER lng Parameter 'lng' is required when 'lat' is provided")
        #expect(answer("lng=1") == "INVALID_PARAMETER lat Parameter 'lat' is required when 'lng' is provided")
        #expect(rules.parameter(feeding: "range")?.defaultValue == 5)
    }

    @Test func multipleOfIsASchemaKeywordAndInfinityIsNoMultiple() {
        let validator = SchemaValidator()
        #expect(validator.validate(1.5, against: ["multipleOf": 1]).map(\.keyword) == ["multipleOf"])
        #expect(validator.validate(1e308, against: ["multipleOf": 1]).isEmpty)
        #expect(CompiledSchema(["multipleOf": 0.5], validator: validator).validate(1.25).map(\.keyword) == ["multipleOf"])
        #expect(!ValueCheck.isMultiple(.infinity, of: 1))
        let linter = SchemaLinter(file: "x.json", validator: validator, documentKey: "x.json", documentRoot: ["multipleOf": 0])
        #expect(linter.lint(["multipleOf": 0], at: "").map(\.message) == ["multipleOf must be a number greater than 0"])
    }

    // MARK: - Lint

    func problems(_ edit: (inout JSONValue) -> Void, file: String = "schemas/CreateAnnouncementRequest.json") throws -> [LintProblem] {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try copy.edit(file, edit)
        return ContractSet.lint(directory: copy.url)
    }

    @Test func theBundledFoldersHaveNoRuleProblems() {
        #expect(ContractSet.lint(directory: ContractSet.bundledDirectory) == [])
        #expect(ContractSet.lint(directory: Self.newer) == [])
    }

    @Test(arguments: [
        ("/properties/phone/x-tirm", JSONValue.bool(true), "unknown rule keyword \"x-tirm\""),
        ("/x-order", JSONValue.array([]), "unknown rule keyword \"x-order\" on a request body"),
        ("/properties/petName/x-errors/maxLength", ["code": "INVALID_FORMAT", "message": "too long"], "x-errors names \"maxLength\", which the property petName does not have"),
        ("/properties/petName/x-errors/required", ["code": "MISSING_VALUE", "message": "Required"], "the object's required list does not name petName"),
        ("/properties/lastSeenDate/x-check", "javascript-date-in-past", "x-check must name a known check"),
        ("/properties/phone/x-errors/pattern", "invalid phone format", "an answer must be an object"),
        ("/properties/phone/x-errors/pattern/code", 400, "code must be a non-empty string"),
        ("/properties/phone/x-errors/pattern/status", 200, "status must be an error status"),
        ("/properties/phone/x-errors/pattern/messsage", "typo", "unknown key \"messsage\" in an answer"),
        ("/properties/phone/x-errors/pattern/message", "{feild} is wrong", "unknown placeholder {feild}"),
        ("/properties/phone/x-sanitize", "html", "x-sanitize must be \"xss\""),
        ("/properties/phone/x-stored", "lowercase", "x-stored must be \"as-sent\" or \"trimmed\""),
        ("/x-errors/oneOf", ["code": "X", "message": "y"], "x-errors names \"oneOf\", which this body schema does not have"),
        ("/x-issue-order", ["properties", "contact"], "x-issue-order must list object phases once each"),
    ] as [(String, JSONValue, String)])
    func ruleKeywordProblemsNameTheFileAndPointer(_ pointer: String, _ value: JSONValue, _ message: String) throws {
        let found = try problems { $0.set(pointer, value) }
        let problem = try #require(found.first { $0.message.contains(message) }, "\(found)")
        #expect(problem.file.hasSuffix("schemas/CreateAnnouncementRequest.json"))
        #expect(problem.pointer == pointer)
        #expect(found.count == 1, "\(found)")
    }

    @Test func queryRuleProblemsNameTheContractAndPointer() throws {
        let found = try problems({ contract in
            contract.set("/request/query/lat/schema/x-requires", "longitude")
            contract.set("/request/query/lng/schema/x-parse", "parseInt")
            contract.set("/request/query/range/schema/x-errors/maximum", ["code": "INVALID_PARAMETER", "message": "too far"])
            contract.set("/request/query/range/schema/x-filter-input", "radius")
        }, file: "list-announcements.json")
        let byPointer = Dictionary(found.map { ($0.pointer, $0.message) }, uniquingKeysWith: { a, _ in a })
        #expect(byPointer["/request/query/lat/schema/x-requires"]?.contains("another query parameter") == true, "\(found)")
        #expect(byPointer["/request/query/lng/schema/x-parse"]?.contains("javascript-parseFloat") == true)
        #expect(byPointer["/request/query/range/schema/x-errors/maximum"]?.contains("does not have") == true)
        #expect(byPointer["/request/query/range/schema/x-filter-input"]?.contains("latitude, longitude, range") == true)
        #expect(found.allSatisfy { $0.file.hasSuffix("list-announcements.json") })
        #expect(found.count == 4, "\(found)")
    }

    @Test func aSharedSchemaProblemIsReportedOnce() throws {
        let copy = try ContractsCopy(from: Self.newer)
        defer { copy.remove() }
        try copy.edit("schemas/UserCredentials.json") { $0.set("/properties/password/x-errors/pattern", ["code": "X", "message": "y"]) }
        let found = ContractSet.lint(directory: copy.url)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.pointer == "/properties/password/x-errors/pattern")
        #expect((try? copy.load()) == nil)
    }
}
