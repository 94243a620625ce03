import ContractKit
import Foundation
import MockBackend
import ScenarioEngine
import Testing
@testable import Exploration

/// The stateless exploration reaches operations whose path needs a value, from the server's own answers, and an
/// upload behind Basic credentials, from a create of the set.
@Suite struct DocumentReachTests {
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
                      schema: {type: object, required: [id], properties: {id: {type: string}, species: {type: string, enum: [dog, cat]}}}
        """

    static let listing = """
        openapi: 3.0.3
        info: {title: All pets, version: "1"}
        servers: [{url: /api/v1}]
        paths:
          /announcements:
            get:
              operationId: allPets
              responses:
                "200": {description: every pet with a photo}
        """

    @Test func anIdOnlyAListGivesReachesTheDetails() async throws {
        let contracts = try DocumentSupport.load([("details.yaml", Self.details), ("listing.yaml", Self.listing)])
        let fixtures = ContractSet.bundledDirectory.appendingPathComponent("fixtures/pets.json")
        let outcome = try await DocumentSupport.withMock(fixtures: fixtures) { target in
            await DocumentExplorer(contracts: contracts, target: target, cases: 20, timeout: .seconds(120)).explore()
        }
        #expect(outcome.reachedBy.contains { $0.hasPrefix("onePet: {petId} = ") && $0.hasSuffix("from item 1 of the allPets list") }, "\(outcome.reachedBy)")
        #expect(!outcome.skipped.contains { $0.hasPrefix("onePet") }, "\(outcome.skipped)")
        // The details were read: the server's upper-case species breaks the document's lower-case enum.
        #expect(outcome.findings.contains { $0.contractID == "onePet" && $0.title == "200 body /species enum" }, "\(outcome.findings.map(\.title))")
    }

    @Test func withoutAListTheDetailsAreLeftOutSayingWhy() async throws {
        let contracts = try DocumentSupport.load([("details.yaml", Self.details)])
        let outcome = try await DocumentSupport.withMock { target in
            await DocumentExplorer(contracts: contracts, target: target, cases: 5, timeout: .seconds(120)).explore()
        }
        #expect(outcome.skipped.contains { $0.hasPrefix("onePet: its path needs {petId}, which no answer of the set gives") }, "\(outcome.skipped)")
    }

    /// A create and an upload behind Basic credentials made of the created id and the secret its answer hands out.
    static let uploads = """
        openapi: 3.0.3
        info: {title: Pet photos, version: "1"}
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
                    example: {species: DOG, sex: MALE, locationLatitude: 7, locationLongitude: 8, phone: "5550105", lastSeenDate: "2024-05-05", status: MISSING}
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
                "400": {description: no photo}
        """

    @Test func anUploadIsProbedWithTheCredentialsOfARecordTheSetCreates() async throws {
        let contracts = try DocumentSupport.load([("uploads.yaml", Self.uploads)])
        // The double answers the listed multipart defects (busboy's 500s) once the credentials pass.
        let outcome = try await DocumentSupport.withMock(reproduceKnownDefects: true) { target in
            await DocumentExplorer(contracts: contracts, target: target, cases: 5, timeout: .seconds(120)).explore()
        }
        #expect(outcome.reachedBy.contains { $0.hasPrefix("created one record with newPet") }, "\(outcome.reachedBy)")
        let upload = try #require(outcome.defects.first { $0.contractID == "petPhoto" && $0.status == 500 }, "\(outcome.defects)")
        #expect(upload.probes.contains("multipart without a boundary"), "\(upload.probes)")
        #expect(upload.probes.contains("multipart with the file twice"), "\(upload.probes)")
    }
}
