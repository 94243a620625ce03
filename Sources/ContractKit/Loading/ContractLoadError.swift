import Foundation

/// A contracts folder that could not be loaded, with every problem found in it.
public struct ContractLoadError: Error, Sendable, CustomStringConvertible {
    /// The folder that was loaded.
    public let directory: URL
    /// Every problem, each naming its file and JSON pointer.
    public let problems: [LintProblem]

    /// A load failure of `directory` because of `problems`.
    public init(directory: URL, problems: [LintProblem]) {
        self.directory = directory
        self.problems = problems
    }

    /// Every problem on its own line, under a one-line summary.
    public var description: String {
        "the contracts in \(directory.path) have \(problems.count) problem\(problems.count == 1 ? "" : "s"):\n"
            + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
