import ContractKit
import ContractModel

/// A problem in fault rules, naming the file (or source, e.g. `admin API`) and the JSON pointer of the offending value;
/// the same type as every other SpotCheck file problem, so it prints as `file:pointer: message`.
public typealias FaultRuleError = LintProblem
