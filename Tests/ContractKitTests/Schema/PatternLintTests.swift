import Foundation
import Testing

@testable import ContractKit

/// A `pattern` that cannot run in linear time is a lint problem naming the construct, its position, file and pointer,
/// and a folder with one does not load for serving (there is no backtracking fallback).
@Suite struct PatternLintTests {
    static let pointer = "/properties/reward/pattern"

    func lint(pattern: String) throws -> (problems: [LintProblem], loads: Bool) {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try copy.edit("schemas/CreateAnnouncementRequest.json") { $0.set(Self.pointer, .string(pattern)) }
        let loads = (try? copy.load()) != nil
        return (ContractSet.lint(directory: copy.url), loads)
    }

    @Test(arguments: [
        (#"^(a)\1$"#, #"a backreference (\1) needs a backtracking matcher"#, 5),
        (#"^(?<n>a)\k<n>$"#, #"a named backreference (\k<...>)"#, 9),
        ("^a(?=b)", "a lookahead (?=...)", 3),
        ("^a(?!b)", "a lookahead (?!...)", 3),
        ("(?<=a)b", "a lookbehind (?<=...)", 1),
        ("(?<!a)b", "a lookbehind (?<!...)", 1),
    ])
    func constructsThatNeedBacktrackingAreRefused(_ pattern: String, _ construct: String, _ position: Int) throws {
        let (problems, loads) = try lint(pattern: pattern)
        let problem = try #require(problems.first { $0.pointer == Self.pointer })
        #expect(problem.file.hasSuffix("schemas/CreateAnnouncementRequest.json"))
        #expect(problem.message.contains("cannot be matched in time linear in the input"))
        #expect(problem.message.contains(construct), "\(problem.message)")
        #expect(problem.message.contains("at character \(position)"), "\(problem.message)")
        #expect(!loads)
    }

    @Test func tooLargeAndInvalidPatternsAreRefusedToo() throws {
        let large = try lint(pattern: "^(abc){2000}$")
        #expect(large.problems.contains { $0.pointer == Self.pointer && $0.message.contains("is too large") && $0.message.contains("more than 5000 steps") })
        #expect(!large.loads)
        let invalid = try lint(pattern: "^(abc$")
        #expect(invalid.problems.contains { $0.pointer == Self.pointer && $0.message.contains("is not a valid regular expression: the group opened here is never closed") })
    }

    @Test func theBundledPatternsAllCompile() throws {
        let (problems, loads) = try lint(pattern: "^[^@]*$")
        #expect(problems.isEmpty)
        #expect(loads)
    }
}
