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
        let malformed = try #require(set.knownDefects.first { $0.id == "create-malformed-json-500" })
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

    @Test func anExpiredEntryExcusesNothing() {
        let entry = KnownDefect(id: "x", contractID: "c", example: "e", reason: "r", trigger: nil,
                                actual: .init(status: 500, code: nil, message: nil, requestIdHeader: true), expires: "2025-01-31")
        #expect(entry.isExpired(today: "2025-02-01"))
        #expect(!entry.isExpired(today: "2025-01-31"))
    }
}
