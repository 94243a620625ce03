import ContractKit
import Foundation
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// The model answers and stores what the contract folder it was built from says (issue 27): an edited message, a new
/// limit, and the two versions of the real backend, each from its own folder.
@Suite struct ContractRulesBackendTests {
    typealias S = BundledContractsTestSupport

    static let newerFolder = ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")

    /// A backend built from `folder` with the test clock.
    func backend(_ folder: URL) throws -> ModelBackend {
        try ModelBackend(configuration: .init(contracts: try ContractSet.load(from: folder), seed: 7, checkResponses: true,
                                                now: { BundledContractsTestSupport.now }))
    }

    func create(_ backend: ModelBackend, _ changes: [(String, JSONValue?)]) async -> MockResponse {
        await backend.respond(to: S.createRequest(S.createBody(changes)))
    }

    @Test func anEditedMessageInACopiedFolderIsAnswered() async throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        try copy.edit("schemas/CreateAnnouncementRequest.json") {
            $0.set(["properties", "phone", "x-errors", "pattern", "message"], "the phone needs at least one digit")
        }
        let edited = await create(try backend(copy.url), [("phone", "no digits")])
        #expect(edited.status == .badRequest)
        #expect(edited.errorCode == "INVALID_FORMAT")
        #expect(edited.errorField == "phone")
        #expect(edited.errorMessage == "the phone needs at least one digit")
        #expect(edited.assumptions.isEmpty)
        let bundled = await create(try backend(ContractSet.bundledDirectory), [("phone", "no digits")])
        #expect(bundled.errorMessage == "invalid phone format")
    }

    @Test func aNewMaxLengthWithItsAnswerIsEnforced() async throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        try copy.edit("schemas/CreateAnnouncementRequest.json") {
            $0.set(["properties", "petName", "maxLength"], 5)
            $0.set(["properties", "petName", "x-errors", "maxLength"],
                   ["code": "INVALID_FORMAT", "message": "{field} is at most 5 characters", "field": "{field}"])
        }
        let backend = try backend(copy.url)
        let long = await create(backend, [("petName", "Rexie!")])
        #expect(long.status == .badRequest)
        #expect(long.errorCode == "INVALID_FORMAT")
        #expect(long.errorField == "petName")
        #expect(long.errorMessage == "petName is at most 5 characters")
        #expect(long.assumptions.isEmpty)
        // Five UTF-16 units pass; one emoji is two of them.
        #expect(await create(backend, [("petName", "Rexie")]).status == .created)
        #expect(await create(backend, [("petName", "🐶🐶🐶")]).status == .badRequest)
    }

    @Test func aKeywordWithoutAnAnswerIsTheFirst400AndAnAssumption() async throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        try copy.edit("schemas/CreateAnnouncementRequest.json") { $0.set(["properties", "reward", "maxLength"], 10) }
        let answer = await create(try backend(copy.url), [("reward", "a reward of 100 PLN")])
        // The create contract's first documented 400's code (MISSING_VALUE), with a message naming the rule broken.
        #expect(answer.status == .badRequest)
        #expect(answer.errorCode == "MISSING_VALUE")
        #expect(answer.errorMessage == "reward breaks maxLength 10")
        #expect(answer.errorField == "reward")
        #expect(answer.assumptions.count == 1)
        #expect(answer.assumptions.first?.contains("createAnnouncement /request/body/properties/reward: no x-errors for maxLength") == true)
    }

    @Test func aServerDifferingFromAnAssumedRefusalIsANoteAndFromAStatedOneAViolation() throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        try copy.edit("schemas/CreateAnnouncementRequest.json") { $0.set(["properties", "reward", "maxLength"], 10) }
        let contracts = try ContractSet.load(from: copy.url)
        let contract = try #require(contracts.contract(id: "createAnnouncement"))
        let check = ModelAnswerCheck(contracts: contracts, now: { BundledContractsTestSupport.now })
        func differences(_ changes: [(String, JSONValue?)]) -> [ExchangeViolation] {
            let exchange = Exchange(method: "POST", path: "/api/v1/announcements",
                                    requestHeaders: [HeaderField(name: "Content-Type", value: "application/json")],
                                    requestBody: S.createBody(changes).serializedBytes(), status: 201)
            return check.violations(exchange, contract: contract, status: 201, body: nil, statusAlreadyReported: false)
        }
        // The model refuses a long reward only on an assumption (maxLength has no answer): the server's 201 is a note.
        let assumed = differences([("reward", "a reward of 100 PLN")])
        #expect(assumed.count == 1)
        #expect(assumed.first?.assumptions?.first?.contains("no x-errors for maxLength") == true)
        // A stated rule: the server's 201 to a bad phone is a violation.
        let stated = differences([("phone", "no digits")])
        #expect(stated.count == 1)
        #expect(stated.first?.assumptions == nil)
        #expect(differences([]).isEmpty)
    }

    @Test func aBlankEmailNextToAPhoneIsRefusedOnlyByTheNewerBackend() async throws {
        let blank: [(String, JSONValue?)] = [("email", ""), ("phone", "123456789")]
        let older = await create(try backend(ContractSet.bundledDirectory), blank)
        #expect(older.status == .created)
        #expect(older.json?["email"] == "", "stored as sent")
        let newer = try backend(Self.newerFolder)
        let refused = await create(newer, blank)
        #expect(refused.status == .badRequest)
        #expect(refused.errorCode == "INVALID_FORMAT")
        #expect(refused.errorField == "email")
        #expect(refused.errorMessage == "email format is invalid")
        #expect(refused.assumptions.isEmpty)
        #expect(refused.contractViolation == nil)
        // 254 UTF-16 units once trimmed pass; 255 do not; the padding does not count.
        let local = String(repeating: "a", count: 254 - "@example.com".count)
        #expect(await create(newer, [("email", .string(" " + local + "@example.com "))]).status == .created)
        let tooLong = await create(newer, [("email", .string(local + "a@example.com"))])
        #expect(tooLong.status == .badRequest)
        #expect(tooLong.errorMessage == "email format is invalid")
        #expect(await create(try backend(ContractSet.bundledDirectory), [("email", .string(local + "a@example.com"))]).status == .created)
        // Both keys absent is still the contact rule.
        let none = await create(newer, [("email", nil), ("phone", nil)])
        #expect(none.errorCode == "MISSING_CONTACT")
        #expect(none.errorField == "contact")
    }

    @Test func theListReadsItsParametersAndDefaultFromTheContract() async throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        try copy.edit("list-announcements.json") {
            $0.set(["request", "query", "range", "schema", "x-errors", "multipleOf", "message"], "whole kilometres only")
        }
        let backend = try backend(copy.url)
        func list(_ query: String) async -> MockResponse {
            await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements?" + query))
        }
        let fraction = await list("range=1.5")
        #expect(fraction.status == .badRequest)
        #expect(fraction.errorCode == "INVALID_PARAMETER")
        #expect(fraction.errorField == "range")
        #expect(fraction.errorMessage == "whole kilometres only")
        #expect(await list("range=Infinity").errorMessage == "whole kilometres only")
        #expect(await list("lat=1").errorMessage == "Parameter 'lng' is required when 'lat' is provided")
        #expect(await list("lat=1&lng=2&range=3").status == .ok)
    }
}

/// A throw-away copy of the bundled contracts folder, edited as JSON (key order kept: `x-errors` order is meaningful).
struct EditableContracts {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("rules-contracts-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ContractSet.bundledDirectory, to: url)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    func edit(_ file: String, _ change: (inout JSONValue) -> Void) throws {
        let fileURL = url.appendingPathComponent(file)
        var value = try JSONValue(parsing: Data(contentsOf: fileURL))
        change(&value)
        try value.data(pretty: true).write(to: fileURL)
    }
}

extension JSONValue {
    /// Sets the member at `path` (object keys), creating objects on the way; a new key goes last.
    mutating func set(_ path: [String], _ newValue: JSONValue) {
        guard let first = path.first else {
            self = newValue
            return
        }
        var object = objectValue ?? JSONObject()
        var child = object[first] ?? .object(JSONObject())
        child.set(Array(path.dropFirst()), newValue)
        object[first] = child
        self = .object(object)
    }
}
