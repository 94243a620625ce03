import Foundation

/// How many generated cases exercised one stated rule: a line of the coverage listing.
public struct RuleCoverage: Sendable, Equatable {
    /// The rule.
    public let rule: StatedRule
    /// The generated cases sent that exercised it (0: not exercised).
    public let cases: Int

    /// A line for `rule` with `cases` cases.
    public init(rule: StatedRule, cases: Int) {
        self.rule = rule
        self.cases = cases
    }

    /// `createAnnouncement /request/body/properties/petName maxLength: 6 cases`.
    public var line: String { "\(rule.id): \(cases) case\(cases == 1 ? "" : "s")" }

    /// The coverage of `rules` by `cases` (each case counted for every rule it names).
    public static func listing(_ rules: [StatedRule], cases: [GeneratedRequest]) -> [RuleCoverage] {
        var counts: [String: Int] = [:]
        for request in cases { for rule in request.exercises { counts[rule, default: 0] += 1 } }
        return rules.map { RuleCoverage(rule: $0, cases: counts[$0.id] ?? 0) }
    }
}
