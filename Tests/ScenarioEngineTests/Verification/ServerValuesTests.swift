import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing
@testable import ScenarioEngine

/// A path parameter no example fills takes a value the server itself gave: a list of the same set whose items carry
/// it, a link of an earlier answer, a create's answer. No test data is written by hand.
@Suite struct ServerValuesTests {
    /// One pet by id, in a document of its own: nothing in it creates or lists a pet.
    static let details = """
        openapi: 3.0.3
        info: {title: One pet, version: "1"}
        servers: [{url: /api/v1}]
        paths:
          /announcements/{petId}:
            get:
              operationId: onePet
              parameters:
                - {name: petId, in: path, required: true, schema: {type: string}}
              responses:
                "200":
                  description: the pet
                  content:
                    application/json:
                      schema: {type: object, required: [id, species], properties: {id: {type: string}, species: {type: string}}}
                      examples:
                        rex: {value: {id: "p-1", species: DOG}}
                "404": {description: no such pet}
        """

    /// Every pet, in another document of the same team.
    static let listing = """
        openapi: 3.0.3
        info: {title: All pets, version: "1"}
        servers: [{url: /api/v1}]
        paths:
          /announcements:
            get:
              operationId: allPets
              responses:
                "200":
                  description: every pet with a photo
                  content:
                    application/json:
                      schema: {type: object, properties: {data: {type: array, items: {type: object, properties: {id: {type: string}}}}}}
        """

    static func verify(_ files: [(String, String)]) async throws -> ProviderVerifier.Outcome {
        try await DocumentDriftTests.verify(files, fixtures: DocumentDriftTests.petsFixtures).0
    }

    @Test func anIdOnlyAListAnswerGivesReachesTheDetailsOfAnotherDocument() async throws {
        let outcome = try await Self.verify([("details.yaml", Self.details), ("listing.yaml", Self.listing)])
        let rex = try DocumentDriftTests.result(outcome, "onePet › rex")
        #expect(rex.status == .passed, "\(rex.failure?.message ?? rex.skipReason ?? "")")
        #expect(rex.notes.contains { $0.hasPrefix("{petId} = ") && $0.hasSuffix("from item 1 of the allPets list") }, "\(rex.notes)")
        #expect(!outcome.report.results.contains { $0.name.hasSuffix("not reachable") })
        // Nothing was created for it.
        #expect(outcome.createdRecords.isEmpty)
    }

    @Test func withoutTheListTheDetailsAreOneNotReachableNote() async throws {
        let outcome = try await Self.verify([("details.yaml", Self.details)])
        #expect(try DocumentDriftTests.result(outcome, "onePet › not reachable").status == .note)
    }

    /// A create whose answer links to a read by a parameter no name rule would match.
    static let linked = """
        openapi: 3.1.0
        info: {title: Linked notices, version: "1"}
        servers: [{url: /api/v1}]
        paths:
          /announcements:
            post:
              operationId: postNotice
              requestBody:
                content:
                  application/json:
                    schema: {type: object}
                    example: {species: CAT, sex: FEMALE, locationLatitude: 5, locationLongitude: 6, phone: "5550104", lastSeenDate: "2024-04-04", status: FOUND}
              responses:
                "201":
                  description: posted
                  links:
                    readIt:
                      operationId: readNotice
                      parameters: {noticeKey: "$response.body#/id"}
          /announcements/{noticeKey}:
            get:
              operationId: readNotice
              parameters:
                - {name: noticeKey, in: path, required: true, schema: {type: string}}
              responses:
                "200":
                  description: the notice
                  content:
                    application/json:
                      schema: {type: object, required: [species], properties: {species: {const: CAT}}}
                      examples:
                        it: {value: {species: CAT}}
        """

    @Test func aLinkOfACreatesAnswerFillsTheParameterItNames() async throws {
        let outcome = try await Self.verify([("linked.yaml", Self.linked)])
        let read = try DocumentDriftTests.result(outcome, "readNotice › it")
        // The species const is CAT: the read is of the very record the create made.
        #expect(read.status == .passed, "\(read.failure?.message ?? read.skipReason ?? "")")
        #expect(outcome.createdRecords.count == 1)
        // The link names another parameter: nothing fills noticeKey.
        let unlinked = Self.linked.replacingOccurrences(of: "parameters: {noticeKey:", with: "parameters: {otherKey:")
        #expect(unlinked != Self.linked)
        let without = try await Self.verify([("linked.yaml", unlinked)])
        #expect(try DocumentDriftTests.result(without, "readNotice › not reachable").status == .note)
    }

    /// A create whose every example carries a key the server refuses, and an upload behind Basic credentials.
    static let refusedCreate = """
        openapi: 3.0.3
        info: {title: Photos, version: "1"}
        servers: [{url: /api/v1}]
        components:
          securitySchemes:
            owner: {type: http, scheme: basic}
        paths:
          /announcements:
            post:
              operationId: newPet
              requestBody:
                content:
                  application/json:
                    schema: {type: object}
                    example: {species: DOG, sex: MALE, locationLatitude: 7, locationLongitude: 8, phone: "5550106", lastSeenDate: "2024-05-06", status: MISSING, nickname: Rex}
              responses:
                "201": {description: made}
          /announcements/{id}/photos:
            post:
              operationId: petPhoto
              security: [{owner: []}]
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
              requestBody:
                content:
                  multipart/form-data:
                    schema: {type: object, required: [photo], properties: {photo: {type: string, format: binary}}}
              responses:
                "201": {description: stored}
        """

    @Test func aRecordIsMadeForTheChecksThatNeedItsCredentials() async throws {
        let outcome = try await Self.verify([("photos.yaml", Self.refusedCreate)])
        // The documented create is refused (nickname is not a field the server takes): a drift, and no record.
        #expect(try DocumentDriftTests.result(outcome, "newPet › example").status == .failed)
        // The upload still runs, with the credentials of a record made without the refused key.
        let upload = try DocumentDriftTests.result(outcome, "petPhoto › made from the schema")
        #expect(upload.status == .passed, "\(upload.failure?.message ?? upload.skipReason ?? "")")
        #expect(upload.notes.contains { $0.hasPrefix("made one record with newPet (id ") }, "\(upload.notes)")
        #expect(outcome.createdRecords.count == 1)
    }

    @Test func valuesAreTakenByNameClosestPathFirstAndFromRuntimeExpressions() throws {
        let (folder, urls) = try DocumentDriftTests.documents([("details.yaml", Self.details), ("listing.yaml", Self.listing)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let contracts = try ContractSet.load(documents: urls)
        let list = try #require(contracts.contract(id: "allPets"))
        let one = try #require(contracts.contract(id: "onePet"))
        var values = ServerValues()
        values.capture(list, status: 200, headers: [], body: Data(#"{"data":[{"id":"a-1"},{"id":"a-2"}]}"#.utf8), pathValues: [:], contracts: contracts)
        #expect(values.value(for: "petId", of: one)?.value == "a-1")
        #expect(values.value(for: "name", of: one) == nil)
        // A Location matched against the set's templates fills the parameter by its own name.
        values.capture(list, status: 201, headers: [("Location", "/api/v1/announcements/loc-9")], body: Data(), pathValues: [:], contracts: contracts)
        #expect(values.value(for: "petId", of: one)?.value == "loc-9" || values.value(for: "petId", of: one)?.value == "a-1")
        #expect(ServerValues.evaluate("$response.header.Location", body: nil, location: nil, pathValues: [:], headers: [("location", "/x")]) == "/x")
        #expect(ServerValues.evaluate("$response.body#/a/0", body: ["a": [7]], location: nil, pathValues: [:], headers: []) == "7")
        #expect(ServerValues.isIdentifier("pet_id") && ServerValues.isIdentifier("petId") && !ServerValues.isIdentifier("idle"))
    }
}
