import Foundation
import Testing

@testable import ContractKit

/// A `$ref` chain that loops on the same value is a lint problem listing each step (file and pointer); recursion through
/// `properties` or `items` into a smaller value is not.
@Suite struct ReferenceCycleLintTests {
    func write(_ copy: ContractsCopy, _ file: String, _ json: String) throws {
        try Data(json.utf8).write(to: copy.url.appendingPathComponent(file))
    }

    func cycleProblems(_ copy: ContractsCopy) -> [LintProblem] {
        ContractSet.lint(directory: copy.url).filter { $0.message.contains("loops back to itself") }
    }

    @Test func twoSchemasThatReferEachOtherAreReportedWithTheChain() throws {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try write(copy, "schemas/LoopA.json", #"{ "$ref": "LoopB.json" }"#)
        try write(copy, "schemas/LoopB.json", #"{ "allOf": [{ "type": "object" }, { "$ref": "LoopA.json" }] }"#)
        try copy.edit("get-announcement.json") { $0.set("/responses/0/body", .object(["$ref": .string("schemas/LoopA.json")])) }
        let problems = cycleProblems(copy)
        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.file.hasSuffix("schemas/LoopA.json"))
        #expect(problem.pointer == "/$ref")
        #expect(problem.message.contains("LoopA.json:/$ref → "))
        #expect(problem.message.contains("LoopB.json:/allOf/1/$ref → "))
        #expect(problem.message.hasSuffix("LoopA.json:/$ref); no value could ever pass"))
        #expect(throws: ContractLoadError.self) { try copy.load() }
    }

    @Test func aSchemaThatRefersToItselfIsReported() throws {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try write(copy, "schemas/Self.json", ##"{ "$defs": { "me": { "$ref": "#/$defs/me" } }, "$ref": "#/$defs/me" }"##)
        let problems = cycleProblems(copy)
        #expect(problems.map(\.pointer) == ["/$defs/me/$ref"])
        #expect(problems.first?.message.contains("Self.json:/$defs/me/$ref → ") == true)
    }

    @Test func recursionIntoChildValuesIsNotACycle() throws {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try write(copy, "schemas/Tree.json",
            #"{ "type": "object", "properties": { "children": { "type": "array", "items": { "$ref": "Tree.json" } } } }"#)
        #expect(ContractSet.lint(directory: copy.url).isEmpty)
    }

    @Test func theBundledContractsHaveNoCycle() {
        #expect(ContractSet.lint(directory: ContractSet.bundledDirectory).isEmpty)
    }
}
