import ContractKit
import Foundation

extension ExplorationReport {
    /// The results for CI reports, as the JUnit report has them: one per model rule, the counterexample's rule failing
    /// (at the scenario file `--save` wrote, when given), a rule no session reached skipped.
    public func ciResults(savedScenario: String?, locator: inout SourceLocator) -> [CIResult] {
        let suite = "spotcheck explore seed \(seed)"
        return ModelRule.allCases.map { rule in
            var result = CIResult(name: rule.rawValue, suite: [suite], status: .passed, message: nil)
            if let c = counterexample, c.failure.rule == rule {
                result.status = .failed
                result.level = .error
                result.duration = duration
                result.message = c.failure.headline
                result.details = "\(rule.statement)\n\(c.failure.message)"
                result.location = savedScenario.map { locator.location(file: $0, pointer: nil) }
            } else if (rules[rule] ?? 0) == 0 {
                result.status = .skipped
                result.message = "not reached by \(sessions) sessions"
            }
            return result
        }
    }
}
