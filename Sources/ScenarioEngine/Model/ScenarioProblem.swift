import ContractKit
import Foundation

/// One problem in a scenario file, printed as `file:pointer: message` like every SpotCheck lint problem.
public struct ScenarioProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file path as the user gave it (or relative to the scenarios folder).
    public let file: String
    /// The JSON pointer of the offending value, "" for the whole document.
    public let pointer: String
    /// What was wrong and what was expected, written for a person.
    public let message: String

    /// A problem at `pointer` in `file`.
    public init(file: String, pointer: String, message: String) {
        self.file = file
        self.pointer = pointer
        self.message = message
    }

    /// The text shown to people.
    public var description: String { "\(file):\(pointer): \(message)" }
}

extension ScenarioProblem {
    /// The same problem as ContractKit's lint problem, so `spotcheck lint` prints contracts and scenarios alike.
    public var lintProblem: LintProblem { LintProblem(file: file, pointer: pointer, message: message) }
}
