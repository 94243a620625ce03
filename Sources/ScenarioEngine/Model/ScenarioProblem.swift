import ContractKit
import ContractModel

/// One problem in a scenario file: ContractKit's lint problem, so `spotcheck lint` prints contracts and scenarios alike.
public typealias ScenarioProblem = LintProblem
