import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing
@testable import ScenarioEngine

/// Only what a document says is held against the server: a conflict is expected only of a request that repeats the
/// field the document ties it to, the invariants of a photo flow run only for contracts that declare one, and every
/// request example of an operation is sent.
@Suite struct DocumentOwnChecksTests {
    /// A create of a lost-cat notice with two request examples, one with a chip number and one without, and a conflict
    /// the document ties to the chip number alone (by its description and its example's field).
    static func notices(withChip: Bool = true) -> String {
        let chip = withChip ? "\n                  microchipNumber: \"900215000123456\"" : ""
        return """
        openapi: 3.0.3
        info: {title: Cat notices, version: "2"}
        servers: [{url: /api/v1}]
        paths:
          /announcements:
            post:
              operationId: postNotice
              requestBody:
                content:
                  application/json:
                    schema:
                      type: object
                      properties:
                        species: {type: string}
                        sex: {type: string}
                        locationLatitude: {type: number}
                        locationLongitude: {type: number}
                        phone: {type: string}
                        lastSeenDate: {type: string}
                        status: {type: string}
                        microchipNumber: {type: string}
                    examples:
                      plain:
                        value: {species: CAT, sex: MALE, locationLatitude: 1.5, locationLongitude: 2.5, phone: "5550001", lastSeenDate: "2024-03-01", status: MISSING}
                      chipped:
                        value:
                          species: CAT
                          sex: FEMALE
                          locationLatitude: 3.5
                          locationLongitude: 4.5
                          phone: "5550002"
                          lastSeenDate: "2024-03-02"
                          status: MISSING\(chip)
              responses:
                "201":
                  description: the notice is up
                  content:
                    application/json:
                      schema: {type: object, required: [id], properties: {id: {type: string}}}
                "409":
                  description: another notice already gives this microchip number
                  content:
                    application/json:
                      schema: {type: object}
                      example: {error: {code: CONFLICT, message: "An entity with this value already exists", field: microchipNumber}}
        """
    }

    @Test func aConflictIsExpectedOnlyOfTheExampleThatRepeatsItsField() async throws {
        let (outcome, plan) = try await DocumentDriftTests.verify([("notices.yaml", Self.notices())])
        // Both request examples are sent, not only the first.
        #expect(try DocumentDriftTests.result(outcome, "postNotice › plain").status == .passed)
        #expect(try DocumentDriftTests.result(outcome, "postNotice › chipped").status == .passed)
        #expect(outcome.createdRecords.count == 2, "two creates; the repeat conflicts: \(outcome.createdRecords)")
        let conflict = try #require(plan.first { $0.response.status == 409 })
        #expect(conflict.recipe.repeats == "postNotice › chipped")
        let result = try DocumentDriftTests.result(outcome, conflict.name)
        #expect(result.status == .passed, "\(result.failure?.message ?? result.skipReason ?? "")")
        #expect(outcome.report.failed == 0)
    }

    @Test func aConflictTiedToAFieldNoExampleCarriesIsNotExpected() async throws {
        let (outcome, plan) = try await DocumentDriftTests.verify([("notices.yaml", Self.notices(withChip: false))])
        let conflict = try #require(plan.first { $0.response.status == 409 })
        #expect(conflict.skipReason?.contains("a duplicate of microchipNumber, which none of its request examples carries") == true,
                "\(conflict.skipReason ?? "")")
        #expect(try DocumentDriftTests.result(outcome, conflict.name).status == .skipped)
        // The server rightly takes the same create twice: nothing fails.
        #expect(outcome.report.failed == 0)
        #expect(outcome.createdRecords.count == 2)
    }

    @Test func theFieldAConflictIsTiedToIsReadFromTheDocumentsWords() throws {
        #expect(ConflictTie.names("microchipNumber", in: "conflict - duplicate microchip number"))
        #expect(ConflictTie.names("email", in: "email already exists"))
        #expect(!ConflictTie.names("id", in: "a valid body"))
        #expect(ConflictTie.words("pet_tagCode") == ["pet", "tag", "code"])
        let folder = try DocumentDriftTests.documents([("notices.yaml", Self.notices())])
        defer { try? FileManager.default.removeItem(at: folder.folder) }
        let contracts = try ContractSet.load(documents: folder.urls)
        // The tied field is made this run's own, so a server shared between runs never sees a false conflict.
        #expect(UniqueStandIns(contracts: contracts).fields == ["microchipNumber"])
    }

    /// A create, a read and a list at the photo flow's paths, with no upload anywhere: the read's example shows a photo
    /// address and the list's example an item, which a server of the photo flow answers otherwise for a fresh record.
    static let noUploads = """
        openapi: 3.1.0
        info: {title: Notices without photos, version: "1"}
        paths:
          /api/v1/announcements:
            post:
              operationId: addNotice
              requestBody:
                content:
                  application/json:
                    schema: {type: object}
                    examples:
                      one: {value: {species: DOG, sex: MALE, locationLatitude: 10, locationLongitude: 20, phone: "5550003", lastSeenDate: "2024-01-05", status: FOUND}}
              responses:
                "201":
                  description: added
                  content:
                    application/json:
                      schema: {type: object, required: [id], properties: {id: {type: string}}}
            get:
              operationId: allNotices
              responses:
                "200":
                  description: every notice
                  content:
                    application/json:
                      schema: {type: object, required: [data], properties: {data: {type: array}}}
                      examples:
                        some: {value: {data: [{id: "n-1", photoUrl: "/images/n-1.png"}]}}
          /api/v1/announcements/{id}:
            get:
              operationId: oneNotice
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
              responses:
                "200":
                  description: the notice
                  content:
                    application/json:
                      schema: {type: object, required: [id], properties: {id: {type: string}}}
                      examples:
                        pictured: {value: {id: "n-1", photoUrl: "/images/n-1.png"}}
        """

    @Test func aDocumentWithoutUploadsMeetsNoPhotoCheck() async throws {
        let (outcome, _) = try await DocumentDriftTests.verify([("notices.yaml", Self.noUploads)])
        let mismatches = outcome.report.results.flatMap { $0.failure?.mismatches ?? [] }
        #expect(!mismatches.contains { $0.subject.hasPrefix("invariant") }, "\(mismatches)")
        // The read takes the id the create answered; the list and the read pass by the document's own schemas.
        #expect(try DocumentDriftTests.result(outcome, "oneNotice › pictured").status == .passed)
        #expect(try DocumentDriftTests.result(outcome, "allNotices › some").status == .passed)
        #expect(outcome.report.failed == 0, "\(outcome.report.results.compactMap(\.failure?.message))")
    }
}

/// The photo flow's invariants still hold for contracts that declare it (`x-state` attach-file and a list's `where`).
@Suite struct DeclaredInvariantTests {
    static func check(_ contractID: String, example: String? = nil) throws -> VerificationCheck {
        let plan = VerificationPlanner.plan(for: try ProviderVerifierTests.contracts.get())
        return try #require(plan.first { $0.contractID == contractID && (example == nil || $0.exampleName == example) && (200..<300).contains($0.response.status) })
    }

    @Test func aReadAfterTheUploadShowsThePublishedAddressAndAListOnlyRecordsWithAFile() throws {
        let contracts = try ProviderVerifierTests.contracts.get()
        var state = VerificationState(unique: UniqueStandIns(fields: [], runToken: "t"))
        state.id = "0b6f8d1e-8a43-4c47-9f4e-1f2a3b4c5d6e"
        state.fileAttached = true
        let read = try Self.check("getAnnouncement")
        let elsewhere = HTTPAnswer(status: 200, headers: [], body: Data(#"{"id":"0b6f8d1e-8a43-4c47-9f4e-1f2a3b4c5d6e","photoUrl":"https://cdn.example/p.png"}"#.utf8))
        let found = InvariantCheck.mismatches(read, elsewhere, &state, contracts: contracts)
        #expect(found.map(\.subject) == ["invariant: photoUrl after the file is attached"], "\(found)")
        let published = HTTPAnswer(status: 200, headers: [], body: Data(#"{"id":"0b6f8d1e-8a43-4c47-9f4e-1f2a3b4c5d6e","photoUrl":"/images/0b6f8d1e-8a43-4c47-9f4e-1f2a3b4c5d6e.png"}"#.utf8))
        #expect(InvariantCheck.mismatches(read, published, &state, contracts: contracts).isEmpty)
        #expect(state.photoFile == "0b6f8d1e-8a43-4c47-9f4e-1f2a3b4c5d6e.png")
        let list = try #require(VerificationPlanner.plan(for: contracts).first { $0.contractID == "listAnnouncements" && $0.recipe.query.isEmpty && $0.response.status == 200 })
        let unlisted = HTTPAnswer(status: 200, headers: [], body: Data(#"{"data":[{"id":"x","photoUrl":null}]}"#.utf8))
        let listed = InvariantCheck.mismatches(list, unlisted, &state, contracts: contracts).map(\.subject)
        #expect(listed == ["invariant: the list holds only records with photoUrl set", "invariant: the list shows the created record"], "\(listed)")
    }
}
