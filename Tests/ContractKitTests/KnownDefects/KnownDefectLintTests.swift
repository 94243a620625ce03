import Foundation
import Testing
@testable import ContractKit

/// `known-defects.json`: loaded with the contracts, every entry linted, a reason mandatory.
@Suite struct KnownDefectLintTests {
    static let bundled = ContractSet.bundledDirectory

    /// A copy of the bundled contracts with `text` as the defects file.
    static func lint(_ text: String) throws -> [LintProblem] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("defects-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: bundled, to: dir)
        try text.write(to: dir.appendingPathComponent(KnownDefect.fileName), atomically: true, encoding: .utf8)
        return ContractSet.lint(directory: dir)
    }

    @Test func theBundledListLoadsWithTheContracts() throws {
        let set = try ContractSet.load(from: Self.bundled)
        #expect(set.knownDefects.count == 5)
        #expect(set.contract(id: "known-defects") == nil)
        let malformed = try #require(set.knownDefects.first { $0.id == "json-parser-malformed-500" })
        #expect(malformed.trigger == .malformedJSON)
        #expect(malformed.actual == KnownDefect.Answer(status: 500, code: "INTERNAL_SERVER_ERROR", message: "Internal server error", requestIdHeader: false))
        #expect(!malformed.reason.isEmpty)
    }

    @Test func anEntryWithoutAReasonIsALintError() throws {
        let problems = try Self.lint(#"{"defects": [{"id": "x", "contract": "createAnnouncement", "example": "malformed JSON", "actual": {"status": 500}}]}"#)
        #expect(problems.contains { $0.pointer == "/defects/0" && $0.message.contains("\"reason\"") }, "\(problems)")
        let blank = try Self.lint(#"{"defects": [{"id": "x", "contract": "createAnnouncement", "example": "malformed JSON", "reason": "  ", "actual": {"status": 500}}]}"#)
        #expect(blank.contains { $0.pointer == "/defects/0/reason" }, "\(blank)")
    }

    @Test func unknownContractsExamplesTriggersAndDuplicatesAreNamed() throws {
        let problems = try Self.lint(#"""
            {"defects": [
              {"id": "a", "contract": "nope", "example": "x", "reason": "r", "actual": {"status": 500}},
              {"id": "a", "contract": "createAnnouncement", "example": "no such example", "reason": "r", "trigger": "explode", "expires": "soon", "actual": {"status": 700}}
            ]}
            """#)
        let pointers = Set(problems.map(\.pointer))
        #expect(pointers.isSuperset(of: ["/defects/0/contract", "/defects/1/id", "/defects/1/example", "/defects/1/trigger", "/defects/1/expires", "/defects/1/actual/status"]), "\(problems)")
        #expect(problems.allSatisfy { $0.file.hasSuffix(KnownDefect.fileName) })
    }

    /// The body parser's defects are stated once for the service, not per contract, and cover every JSON endpoint.
    @Test func theBodyParsersDefectsAreStatedOnceForTheWholeService() throws {
        for folder in [Self.bundled, Self.bundled.appendingPathComponent("versions/2026-01-12")] {
            let set = try ContractSet.load(from: folder)
            let parser = set.knownDefects.filter { [.malformedJSON, .jsonRootNotContainer, .unsupportedCharset].contains($0.trigger) }
            #expect(parser.count == 3, "\(folder.path)")
            #expect(parser.allSatisfy { $0.scope == .service(.bodyParser) && $0.contractID == nil }, "\(folder.path)")
            // Every contract with a JSON body is covered, the users endpoints of fb9f56a included.
            for contract in set.contracts where contract.request.body != nil {
                for trigger in KnownDefect.ServiceLayer.bodyParser.triggers {
                    #expect(set.knownDefects.defect(contractID: contract.id, trigger: trigger)?.serviceLayer == .bodyParser, "\(contract.id) \(trigger)")
                }
            }
        }
        // A contract added later is covered without an entry of its own.
        let set = try ContractSet.load(from: Self.bundled)
        #expect(set.knownDefects.defect(contractID: "addedLater", trigger: .malformedJSON)?.id == "json-parser-malformed-500")
        #expect(set.knownDefects.defect(contractID: "addedLater", trigger: .multipartMalformed) == nil)
    }

    @Test func anEntryForOneContractWinsOverTheServiceWideOne() {
        let answer = KnownDefect.Answer(status: 500, code: nil, message: nil, requestIdHeader: false)
        let list = [KnownDefect(id: "service", scope: .service(.bodyParser), reason: "r", trigger: .malformedJSON, actual: answer),
                    KnownDefect(id: "own", contractID: "createAnnouncement", example: "malformed JSON", reason: "r", trigger: .malformedJSON, actual: answer)]
        #expect(list.defect(contractID: "createAnnouncement", trigger: .malformedJSON)?.id == "own")
        #expect(list.defect(contractID: "registerUser", trigger: .malformedJSON)?.id == "service")
        #expect(list[0].checkName.contains("every endpoint that takes a JSON body"))
    }

    @Test func serviceWideEntriesAreLinted() throws {
        let problems = try Self.lint(#"""
            {"defects": [
              {"id": "a", "service": "router", "trigger": "malformedJSON", "reason": "r", "actual": {"status": 500}},
              {"id": "b", "service": "bodyParser", "reason": "r", "actual": {"status": 500}},
              {"id": "c", "service": "bodyParser", "trigger": "multipartMalformed", "reason": "r", "actual": {"status": 500}},
              {"id": "d", "service": "bodyParser", "contract": "createAnnouncement", "trigger": "malformedJSON", "reason": "r", "actual": {"status": 500}},
              {"id": "e", "service": "bodyParser", "trigger": "unsupportedCharset", "reason": "r", "actual": {"status": 500}}
            ]}
            """#)
        let pointers = Set(problems.map(\.pointer))
        #expect(pointers.isSuperset(of: ["/defects/0/service", "/defects/1", "/defects/2/trigger", "/defects/3/contract"]), "\(problems)")
        #expect(!pointers.contains { $0.hasPrefix("/defects/4") }, "\(problems)")
    }

    @Test func anExpiredEntryExcusesNothing() {
        let entry = KnownDefect(id: "x", contractID: "c", example: "e", reason: "r", trigger: nil,
                                actual: .init(status: 500, code: nil, message: nil, requestIdHeader: true), expires: "2025-01-31")
        #expect(entry.isExpired(today: "2025-02-01"))
        #expect(!entry.isExpired(today: "2025-01-31"))
    }
}
