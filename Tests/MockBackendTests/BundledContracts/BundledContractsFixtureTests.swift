import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

@Suite struct BundledContractsFixtureTests {
    typealias S = BundledContractsTestSupport

    @Test func theBundledFixturesCoverEveryPetDetailsState() throws {
        let fixtures = try RecordFixture.load(from: RecordFixture.bundledFile, collections: try S.loadedContracts().state.collections)
        #expect(Set(fixtures.map(\.collection)) == ["announcements"])
        let all = fixtures.map(\.fields)
        func set(_ o: JSONObject, _ key: String) -> Bool { o[key].map { !$0.isNull } ?? false }
        #expect(Set(all.compactMap { $0["status"]?.stringValue }) == ["MISSING", "FOUND", "CLOSED", "ACTIVE"])
        #expect(all.contains { set($0, "reward") } && all.contains { !set($0, "reward") })
        #expect(all.contains { set($0, "microchipNumber") } && all.contains { !set($0, "microchipNumber") })
        #expect(fixtures.contains { $0.photo != nil } && fixtures.contains { $0.photo == nil })
        #expect(all.contains { set($0, "phone") && !set($0, "email") })
        #expect(all.contains { set($0, "email") && !set($0, "phone") })
        #expect(all.contains { ($0["description"]?.stringValue?.count ?? 0) >= 400 })
        #expect(all.contains { !set($0, "petName") && !set($0, "breed") && !set($0, "age") })
    }

    @Test func fixturePhotosAreServedAtTheirPhotoUrlWithTheirType() async throws {
        let backend = try S.backend(fixtures: true)
        for fixture in try RecordFixture.load(from: RecordFixture.bundledFile) {
            let response = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/\(fixture.announcementID)"))
            #expect(response.status == .ok)
            // Every field the fixture gives is answered as given, the secret never, in the stored schema's order.
            let answered = try #require(response.json?.objectValue)
            for (key, value) in fixture.fields where key != "managementPassword" { #expect(answered[key] == value, "\(key)") }
            #expect(answered["managementPassword"] == nil)
            #expect(answered.keys == Array(S.storedAnnouncementKeys))
            if ["MISSING", "FOUND"].contains(fixture.fields["status"]?.stringValue) { #expect(response.contractViolation == nil) }
            #expect((answered["photoUrl"]?.stringValue != nil) == (fixture.photo != nil))
            guard let url = answered["photoUrl"]?.stringValue, let photo = fixture.photo else { continue }
            let image = await backend.respond(to: MockRequest(method: .GET, uri: url))
            #expect(image.status == .ok)
            #expect(image.headers.first(name: "Content-Type") == photo.type.contentType)
            #expect(Array(image.body.readableBytesView) == photo.bytes)
        }
    }

    @Test func aFixturePasswordAuthorisesUploads() async throws {
        let backend = try S.backend(fixtures: true)
        let id = "4d2e6f0a-5b72-4394-8ea5-f1a2b3c4d505"
        let response = await backend.respond(to: S.uploadRequest(id: id, authorization: S.basic(id, "330571"), body: S.multipart(bytes: S.jpeg)))
        #expect(response.status == .created)
    }

    @Test(arguments: [
        (#"{"items": []}"#, "/items"), (#"{"announcements": {}}"#, "/announcements"), (#"[]"#, ""), (#"{"announcements": [1]}"#, "/announcements/0"),
        (#"{"announcements": [{"id": "x"}]}"#, "/announcements/0/id"),
        (#"{"announcements": [{"id": "0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101", "nickname": "a"}]}"#, "/announcements/0/nickname"),
        (#"{"announcements": [{"id": "0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101", "managementPassword": "12"}]}"#, "/announcements/0/managementPassword"),
        (#"{"announcements": [{"id": "0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101", "managementPassword": "123456", "species": "DOG", "sex": "M", "lastSeenDate": "2025-11-01", "status": "FOUND", "locationLatitude": 95, "locationLongitude": 1}]}"#, "/announcements/0/locationLatitude"),
        (#"{"announcements": [{"id": "0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101", "managementPassword": "123456", "species": "DOG", "sex": "M", "lastSeenDate": "2025-11-01", "status": "FOUND", "locationLatitude": 5, "locationLongitude": 1, "photo": {"base64": "aGVsbG8="}}]}"#, "/announcements/0/photo/base64"),
    ])
    func badFixturesNameTheFileAndPointer(text: String, pointer: String) throws {
        let json = try JSONValue(parsing: text)
        let collections = try S.loadedContracts().state.collections
        do throws(RecordFixtureError) {
            _ = try RecordFixture.parse(json, file: "pets.json", collections: collections)
            Issue.record("expected an error at \(pointer)")
        } catch {
            #expect(error.pointer == pointer)
            #expect(error.file == "pets.json")
            #expect(error.description.hasPrefix("pets.json: "))
        }
    }

    @Test func aFixtureOutsideTheContractIsServedAndFlaggedWithoutBreakingTheHeaderBlock() async throws {
        let text = #"{"announcements": [{"id": "0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101", "managementPassword": "123456", "species": "DOG", "sex": "M", "lastSeenDate": "2025-11-01", "status": "GONE\r\nX-Injected: 1", "locationLatitude": 5, "locationLongitude": 1}]}"#
        let fixtures = try RecordFixture.parse(try JSONValue(parsing: text), file: "inline")
        let backend = try ModelBackend(configuration: .init(contracts: try S.loadedContracts(), fixtures: fixtures, checkResponses: true))
        let response = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101"))
        #expect(response.status == .ok)
        let violation = try #require(response.contractViolation)
        #expect(violation.contains("/status"))
        #expect(!violation.contains("\r") && !violation.contains("\n"))
        #expect(response.headers.first(name: "X-Injected") == nil)
    }

    @Test func aMissingFixturesFileIsAnErrorNotACrash() {
        #expect(throws: RecordFixtureError.self) { try RecordFixture.load(from: URL(fileURLWithPath: "/nonexistent/pets.json")) }
    }
}
