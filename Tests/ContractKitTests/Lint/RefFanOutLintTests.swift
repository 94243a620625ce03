import Foundation
import Testing

@testable import ContractKit

/// Issue 37: 41 schemas, each an `allOf` of two `$ref`s to the next, make 2^40 paths; lint once ran past 45 s and
/// 1 GB. Schema work is bounded: it lints in bounded time, or fails naming the file and pointer.
@Suite struct RefFanOutLintTests {
    /// Writes the fan-out chain into `copy` and points the details answer's body at its head.
    static func writeFanOut(_ copy: ContractsCopy, depth: Int = 41) throws {
        for i in 0..<depth {
            let text = i == depth - 1
                ? #"{ "type": "object" }"#
                : #"{ "allOf": [{ "$ref": "Fan\#(i + 1).json" }, { "$ref": "Fan\#(i + 1).json" }] }"#
            try Data(text.utf8).write(to: copy.url.appendingPathComponent("schemas/Fan\(i).json"))
        }
        try copy.edit("get-announcement.json") { $0.set("/responses/0/body", .object(["$ref": .string("schemas/Fan0.json")])) }
    }

    @Test func aFanOutOfRefsLintsInBoundedTime() throws {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try Self.writeFanOut(copy)
        let clock = ContinuousClock()
        var problems: [LintProblem] = []
        // Generous for a debug build on a loaded machine; the release figure is in docs/security.md.
        let took = clock.measure { problems = ContractSet.lint(directory: copy.url) }
        #expect(took < .seconds(20), "lint took \(took)")
        // Either clean, or a problem naming the file and pointer where the work was cut off.
        for problem in problems {
            #expect(!problem.file.isEmpty && !problem.pointer.isEmpty, "\(problem)")
        }
        print("fan-out lint: \(took), \(problems.count) problem(s): \(problems.prefix(2).map(\.description))")
    }
}
