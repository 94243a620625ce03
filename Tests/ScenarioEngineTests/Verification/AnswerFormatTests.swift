import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing
@testable import ScenarioEngine

/// A format in an answer is what a client decodes by: broken, it is a failure (a note under `--formats lenient`).
@Suite struct AnswerFormatTests {
    /// The list of lost pets, each photo's address documented as an absolute URI (the server answers a relative path).
    static func pets(photoFormat: String) -> String {
        """
        openapi: 3.1.0
        info: {title: Pets seen, version: "1"}
        paths:
          /api/v1/announcements:
            get:
              operationId: petsSeen
              responses:
                "200":
                  description: the pets with a photo
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [data]
                        properties:
                          data:
                            type: array
                            items:
                              type: object
                              properties:
                                photoUrl: {type: string, format: \(photoFormat)}
                                createdAt: {type: string, format: date-time}
        """
    }

    static func verify(photoFormat: String, lenient: Bool = false) async throws -> ScenarioResult {
        let (outcome, _) = try await DocumentDriftTests.verify([("pets.yaml", Self.pets(photoFormat: photoFormat))],
                                                               fixtures: DocumentDriftTests.petsFixtures) { $0.lenientFormats = lenient }
        return try #require(outcome.report.results.first { $0.name.hasPrefix("petsSeen") })
    }

    @Test func aRelativePathWhereTheDocumentSaysURIIsAFailure() async throws {
        let result = try await Self.verify(photoFormat: "uri")
        #expect(result.status == .failed)
        let mismatch = try #require(result.failure?.mismatches.first { $0.subject == "body /data/0/photoUrl" })
        #expect(mismatch.expected.contains("must be a valid uri"), "\(mismatch)")
        #expect(mismatch.actual.contains("/images/"))
        // createdAt is a date-time as documented: no other mismatch.
        #expect(result.failure?.mismatches.allSatisfy { $0.subject.hasSuffix("/photoUrl") } == true, "\(result.failure?.mismatches ?? [])")
    }

    @Test func aRelativePathIsAURIReference() async throws {
        #expect(try await Self.verify(photoFormat: "uri-reference").status == .passed)
    }

    @Test func lenientFormatsMakeItANote() async throws {
        let result = try await Self.verify(photoFormat: "uri", lenient: true)
        #expect(result.status == .note)
        #expect(result.notes.contains { $0.hasPrefix("body /data/0/photoUrl") && $0.contains("--formats lenient") }, "\(result.notes)")
    }
}
