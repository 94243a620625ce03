import ContractKit
import ContractModel
import Foundation

/// Every problem found while loading scenario files; loading fails as a whole so a run never starts half-checked.
public struct ScenarioLoadError: Error, Sendable, CustomStringConvertible {
    /// The problems, in file order.
    public let problems: [ScenarioProblem]

    /// An error listing these problems.
    public init(problems: [ScenarioProblem]) { self.problems = problems }

    /// The text shown to people.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
