import ContractKit
import Foundation
import MockBackend
import ScenarioEngine
import Testing
@testable import Exploration

/// Requests a client could send by mistake go to every operation that takes a body; a 5xx to any is a server defect,
/// whatever the document states, and a 4xx is fine.
@Suite struct DefectProbeTests {
    /// A create of sighting reports (at the paths the mock serves) and an upload beside it.
    static let sightings = """
        openapi: 3.0.3
        info: {title: Sightings, version: "1"}
        servers: [{url: /api/v1}]
        paths:
          /announcements:
            post:
              operationId: reportSighting
              requestBody:
                content:
                  application/json:
                    schema: {type: object, properties: {species: {type: string}}}
                    example: {species: CAT, sex: MALE, locationLatitude: 1, locationLongitude: 2, phone: "5550100", lastSeenDate: "2024-02-02", status: MISSING}
              responses:
                "201": {description: reported}
                "400": {description: refused}
                "500":
                  description: the server failed
                  content:
                    application/json:
                      schema: {type: object, properties: {error: {type: string}}}
            get:
              operationId: sightings
              responses:
                "200": {description: every sighting}
        """

    static func explore(reproduceKnownDefects: Bool) async throws -> DocumentExplorer.Outcome {
        let contracts = try DocumentSupport.load([("sightings.yaml", Self.sightings)])
        return try await DocumentSupport.withMock(reproduceKnownDefects: reproduceKnownDefects) { target in
            await DocumentExplorer(contracts: contracts, target: target, cases: 5, timeout: .seconds(120)).explore()
        }
    }

    @Test func aServerErrorToAProbeIsADefectWhateverTheDocumentStates() async throws {
        // The double answers the body parser's listed defects: 500 to malformed JSON, a root that is no container, a charset.
        let outcome = try await Self.explore(reproduceKnownDefects: true)
        let defect = try #require(outcome.defects.first)
        #expect(outcome.defects.count == 1, "\(outcome.defects)")
        #expect(defect.contractID == "reportSighting")
        #expect(defect.status == 500)
        #expect(defect.probes.contains("a JSON root that is a string"))
        #expect(defect.probes.contains("a JSON root that is a number"))
        #expect(defect.probes.contains("invalid JSON (cut short)"))
        #expect(defect.probes.contains("a JSON body with a charset the server cannot know"))
        // A 4xx is fine: the array root and the undeclared content type are refused with 400.
        #expect(!defect.probes.contains("a JSON root that is an array"))
        #expect(!defect.probes.contains { $0.contains("text/plain") })
        let result = try #require(outcome.results(strict: false).first { $0.tags.contains("server-defect") })
        #expect(result.status == .failed)
        #expect(result.name == "server defect › reportSighting: answers 500 to \(defect.probes.count) request(s) a client could send by mistake")
        // The 500 the document states has the body it states: the double's envelope is an object, not a string.
        #expect(outcome.findings.contains { $0.contractID == "reportSighting" && $0.title == "500 body /error type" && !$0.isNote },
                "\(outcome.findings.map(\.title))")
        // The drift report lists it apart, as a server defect, not under the operation's drift.
        let report = DriftReport(results: outcome.results(strict: false), contracts: try DocumentSupport.load([("s.yaml", Self.sightings)]))
        #expect(report.defects.count == 1)
        #expect(report.lines.first?.hasPrefix("server defects (a 5xx to a request a client could send by mistake") == true, "\(report.lines)")
        #expect(!report.operations.contains { $0.findings.contains { $0.contains("server defect") } })
        // The operation without a body gets no probe.
        #expect(outcome.probesSent == DefectProbes.probes(for: try #require(DocumentSupport.load([("s.yaml", Self.sightings)]).contract(id: "reportSighting")),
                                                          exampleBody: nil, rootType: "object").count)
    }

    @Test func aServerThatRefusesEveryMistakeHasNoDefect() async throws {
        let outcome = try await Self.explore(reproduceKnownDefects: false)
        #expect(outcome.probesSent > 5)
        #expect(outcome.defects.isEmpty, "\(outcome.defects)")
        #expect(!outcome.results(strict: false).contains { $0.tags.contains("server-defect") })
    }

    @Test func anUploadGetsTheMultipartProbesAndEveryJSONRoot() throws {
        let upload = """
            openapi: 3.1.0
            info: {title: Pictures, version: "1"}
            paths:
              /pictures:
                post:
                  operationId: addPicture
                  requestBody:
                    content:
                      multipart/form-data:
                        schema: {type: object, required: [picture], properties: {picture: {type: string, format: binary}}}
                  responses:
                    "201": {description: stored}
            """
        let contract = try #require(try DocumentSupport.load([("pictures.yaml", upload)]).contract(id: "addPicture"))
        let probes = DefectProbes.probes(for: contract, exampleBody: nil, rootType: nil)
        let labels = probes.map(\.label)
        for expected in ["a JSON root that is an object", "a JSON root that is a string", "a JSON root that is null", "invalid JSON (cut short)",
                         "multipart without a boundary", "multipart with a part whose name is empty", "multipart with a part whose name is not UTF-8",
                         "multipart with an extra text part", "multipart with the file twice"] {
            #expect(labels.contains(expected), "\(expected) in \(labels)")
        }
        let twice = try #require(probes.first { $0.label == "multipart with the file twice" })
        #expect(String(decoding: twice.body, as: UTF8.self).components(separatedBy: "name=\"picture\"").count == 3)
        let unnamed = try #require(probes.first { $0.label == "multipart with a part whose name is not UTF-8" })
        #expect(String(data: unnamed.body, encoding: .utf8) == nil)
        #expect(probes.first { $0.label == "multipart without a boundary" }?.headers["Content-Type"] == "multipart/form-data")
    }
}
