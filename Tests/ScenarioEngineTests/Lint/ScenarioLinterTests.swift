import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

@Suite struct ScenarioLinterTests {
    @Test func theBundledLibraryIsClean() throws {
        let problems = ScenarioLinter.lint(directory: ScenarioLibrary.bundledDirectory, contracts: try EngineTestSupport.contracts())
        #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
    }

    @Test func unknownContractIdsAreReportedWhereTheyAreWritten() throws {
        let dir = try EngineTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = #"""
            {"name": "typo", "report": {"phone": "1234567"},
             "faults": [{"contract": "uploadPhotos", "fault": {"kind": "stall"}}],
             "steps": [
               {"action": "submit", "expect": {"journal": {"calls": {"createAnouncement": 1}, "order": ["createAnnouncement", "getPet"]}}},
               {"action": "setFaults", "faults": [{"contract": "lstAnnouncements", "fault": {"kind": "drop"}}]}
             ]}
            """#
        try Data(doc.utf8).write(to: dir.appendingPathComponent("typo.json"))
        let problems = ScenarioLinter.lint(directory: dir, contracts: try EngineTestSupport.contracts())
        #expect(problems.map(\.pointer) == ["/faults/0/contract", "/steps/0/expect/journal/calls/createAnouncement", "/steps/0/expect/journal/order/1", "/steps/1/faults/0/contract"])
        #expect(problems.allSatisfy { $0.message.contains("unknown contract id") && $0.file.hasSuffix("typo.json") })
    }

    /// The fields a scenario types into and expects are its profile's, not a list in the parser: the default profile
    /// has no `nickname`, and the found flow's folder (its own profile.json) has a caregiver's phone.
    @Test func aFieldOnNoStepOfTheFoldersProfileIsAProblemWhereItIsWritten() throws {
        let dir = try EngineTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = #"""
            {"name": "nickname", "report": {"phone": "1234567"},
             "steps": [
               {"action": "editField", "field": "nickname", "value": "Rex"},
               {"action": "submit", "expect": {"inputs": {"caregiverPhone": "1"}, "fields": {"phone": "Enter at least 7 digits"}}}
             ]}
            """#
        try Data(doc.utf8).write(to: dir.appendingPathComponent("nickname.json"))
        let problems = ScenarioLinter.lint(directory: dir, contracts: try EngineTestSupport.contracts())
        #expect(problems.map(\.pointer) == ["/steps/0/field", "/steps/1/expect/inputs/caregiverPhone"], "\(problems.map(\.description))")
        #expect(problems.allSatisfy { $0.message.contains("on no step of the reportMissing flow") }, "\(problems.map(\.description))")
        let found = ScenarioLibrary.bundledDirectory.appendingPathComponent("ios-found-pet")
        let clean = ScenarioLinter.lint(directory: found, contracts: try EngineTestSupport.contracts())
        #expect(clean.isEmpty, "\(clean.map(\.description))")
    }

    @Test func loadProblemsComeOutAsLintProblems() throws {
        let dir = try EngineTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"name": "x", "steps": [}"#.utf8).write(to: dir.appendingPathComponent("broken.json"))
        try Data(#"{"name": "y", "report": {"phone": "1234567"}, "steps": [{"action": "submit", "expect": {"journal": {"calls": {"a": -1}}}}]}"#.utf8)
            .write(to: dir.appendingPathComponent("negative.json"))
        let problems = ScenarioLinter.lint(directory: dir, contracts: nil)
        #expect(problems.count == 2)
        #expect(problems[0].message.hasPrefix("invalid JSON at line 1"))
        #expect(problems[1].pointer == "/steps/0/expect/journal/calls/a")
        #expect(problems[1].description.contains("negative.json:/steps/0/expect/journal/calls/a: the call count must be between 0 and 10000, found -1"))
    }

    @Test func requestChecksAreLintedWithFileAndPointer() throws {
        let dir = try EngineTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"name": "a", "report": "default", "steps": [{"action": "editField", "field": "phone", "value": "1", "expect": {"journal": {"sentReport": true}}}]}"#.utf8)
            .write(to: dir.appendingPathComponent("on-edit.json"))
        try Data(#"{"name": "b", "report": "default", "steps": [{"action": "submit", "expect": {"journal": {"sentBody": {"reward": "x"}}}}]}"#.utf8)
            .write(to: dir.appendingPathComponent("not-a-pointer.json"))
        try Data(#"{"name": "c", "report": "default", "steps": [{"action": "submit", "expect": {"outcome": ["success", "maybe"], "inputs": {"reward": []}}}]}"#.utf8)
            .write(to: dir.appendingPathComponent("bad-outcome.json"))
        let problems = ScenarioLinter.lint(directory: dir, contracts: nil).map(\.description)
        #expect(problems.contains { $0.contains("bad-outcome.json:/steps/0/expect/outcome/1:") }, "\(problems)")
        #expect(problems.contains { $0.contains("not-a-pointer.json:/steps/0/expect/journal/sentBody/reward: expected a JSON pointer") }, "\(problems)")
        #expect(problems.contains { $0.contains("on-edit.json:/steps/0/expect/journal: sentReport, sentBody and sentBodyMatches check what a submission sent") }, "\(problems)")
    }
}
