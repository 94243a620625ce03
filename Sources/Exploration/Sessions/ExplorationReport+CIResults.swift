import CIReports
import Foundation

extension ExplorationReport {
    /// The results for CI reports, as the JUnit report has them: one per model rule, failing with each group of that
    /// rule (at the scenario file `--save` wrote into `savedFolder`, when given), a rule no session reached skipped.
    public func ciResults(savedFolder: String?, locator: inout SourceLocator) -> [CIResult] {
        let suite = "spotcheck explore seed \(seed)" + (shard.map { " shard \($0.index) of \($0.count)" } ?? "")
        return ModelRule.allCases.map { rule in
            var result = CIResult(name: rule.rawValue, suite: [suite], status: .passed, message: nil)
            let mine = groups.filter { $0.rule == rule }
            if let first = mine.first {
                result.status = .failed
                result.level = .error
                result.duration = duration
                result.message = first.headline
                result.details = "\(rule.statement)\n" + mine.map { "\($0.sessions) sessions; \($0.replay) (session \($0.sessionIndex))\n\($0.message)" }.joined(separator: "\n\n")
                result.location = savedFolder.map { locator.location(file: URL(fileURLWithPath: $0).appendingPathComponent(first.fileName).relativePath, pointer: nil) }
            } else if (rules[rule] ?? 0) == 0 {
                result.status = .skipped
                result.message = "not reached by \(sessions) sessions"
            }
            return result
        }
    }
}
