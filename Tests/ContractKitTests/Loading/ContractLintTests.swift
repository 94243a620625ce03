import Foundation
import Testing
@testable import ContractKit

/// `ContractSet.lint` on a folder of deliberately broken contracts: each problem with its file, pointer and message.
@Suite struct ContractLintTests {
    static let broken = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/broken-contracts")

    let problems = ContractSet.lint(directory: ContractLintTests.broken)

    func problems(in file: String) -> [LintProblem] {
        problems.filter { $0.file.hasSuffix("broken-contracts/" + file) }
    }

    @Test func syntaxErrorHasLineAndColumn() throws {
        let problem = try #require(problems(in: "syntax-error.json").first)
        #expect(problem.line == 5)
        #expect(problem.column == 1)
        #expect(problem.message == "invalid JSON: unexpected '}'; expected a member name in double quotes")
        #expect(problem.description.hasSuffix("syntax-error.json:5:1: invalid JSON: unexpected '}'; expected a member name in double quotes"))
    }

    @Test func unknownKeysAreNamedWithAHint() {
        let found = problems(in: "unknown-key.json")
        #expect(found.contains { $0.pointer == "/summry" && $0.message.hasPrefix(#"unknown key "summry" in the contract (did you mean "summary"?)"#) })
        #expect(found.contains { $0.pointer == "/responses/0/examples/0/bodee" && $0.message.hasPrefix(#"unknown key "bodee""#) })
        #expect(found.contains { $0.pointer == "" && $0.message == #"the contract is missing the required key "summary""# })
    }

    @Test func missingKeysAndBadValues() {
        let found = problems(in: "missing-keys.json").map(\.message)
        #expect(found.contains(#"the contract is missing the required key "responses""#))
        #expect(found.contains { $0.contains(#"method must be one of GET"#) && $0.contains(#"found "FETCH""#) })
        #expect(found.contains("the path parameter {id} is not described in pathParameters"))
    }

    @Test func unresolvedReferenceIsReportedOnce() {
        let found = problems(in: "bad-ref.json")
        #expect(found == [LintProblem(file: found.first?.file ?? "", pointer: "/responses/0/body/$ref",
                                      message: "the reference schemas/Missing.json does not resolve")])
    }

    @Test func examplesAreValidatedAgainstTheirSchema() {
        let found = problems(in: "bad-example.json")
        #expect(found.map(\.pointer) == ["/request/examples/0/body/colour", "/responses/0/examples/0/body/name"])
        #expect(found.first?.message == #"the example "extra key" does not match its schema: colour is not an allowed property"#)
        #expect(found.last?.message == #"the example "empty name" does not match its schema: name must be at least 1 character long, found 0"#)
    }

    @Test func successExampleRequestsAreChecked() {
        let found = problems(in: "bad-example-request.json")
        #expect(found.map(\.pointer) == [
            "/responses/0/examples/0/request/pathParameters/thingId",
            "/responses/0/examples/0/request/body/name",
            "/responses/0/examples/0/request/query/limit",
        ])
        #expect(found.first?.message == #"the example "created" sets the path parameter thingId, which the path /things/{id} does not have"#)
        #expect(found.last?.message == #"the example "created" does not match its schema: limit must be at least 1, found 0"#)
    }

    @Test func otherSubfoldersAreNotContracts() {
        #expect(!problems.contains { $0.file.contains("/fixtures/") })
    }

    @Test func duplicateIdNamesTheFirstUser() throws {
        let problem = try #require(problems(in: "duplicate-id-b.json").first)
        #expect(problem.pointer == "/id")
        #expect(problem.message.hasPrefix("the id sameId is already used by "))
        #expect(problem.message.hasSuffix("duplicate-id-a.json"))
        #expect(problems(in: "duplicate-id-a.json").isEmpty)
    }

    @Test func invalidSchemasAreReported() {
        let found = problems(in: "schemas/BadSchema.json")
        #expect(found.map(\.pointer) == ["/type", "/patern", "/properties/n/pattern"])
        #expect(found.first?.message.contains(#"found "text""#) == true)
        #expect(found.dropFirst().first?.message.hasPrefix(#"unknown schema keyword "patern""#) == true)
        #expect(found.last?.message == "pattern ([a-z] is not a valid regular expression: the group opened here is never closed with ), at character 1")
    }

    @Test func loadThrowsEveryProblem() {
        #expect(throws: ContractLoadError.self) { try ContractSet.load(from: ContractLintTests.broken) }
        do {
            _ = try ContractSet.load(from: ContractLintTests.broken)
        } catch {
            #expect(error.problems == problems)
            #expect(error.description.contains("have \(problems.count) problems:"))
        }
    }

    @Test func missingFolderIsAProblem() {
        let found = ContractSet.lint(directory: ContractLintTests.broken.appendingPathComponent("nope"))
        #expect(found.count == 1)
        #expect(found.first?.message.contains("no contracts folder") == true)
    }

    @Test func printerFormatsPointersAndCounts() {
        let text = LintPrinter.render([
            LintProblem(file: "a.json", pointer: "/x", message: "bad"),
            LintProblem(file: "a.json", pointer: "", message: "worse"),
            LintProblem(file: "b.json", line: 2, column: 3, message: "broken"),
        ])
        #expect(text == "a.json:/x: bad\na.json:(root): worse\nb.json:2:3: broken\n3 problems in 2 files\n")
        #expect(LintPrinter.render([]) == "")
        #expect(LintPrinter.displayPath(URL(fileURLWithPath: "/tmp/x/y.json"), relativeTo: URL(fileURLWithPath: "/tmp")) == "x/y.json")
        #expect(LintPrinter.displayPath(URL(fileURLWithPath: "/etc/y.json"), relativeTo: URL(fileURLWithPath: "/tmp")) == "/etc/y.json")
    }

    @Test func editDistanceDrivesTheHint() {
        #expect(ObjectReader.editDistance("summary", "summry") == 1)
        #expect(ObjectReader.editDistance("", "abc") == 3)
        #expect(ObjectReader.editDistance("status", "when") > 2)
    }
}
