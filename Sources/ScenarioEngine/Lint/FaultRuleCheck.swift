import ContractKit

/// Checks a scenario's fault rules in the fault layer's format before anything runs.
enum FaultRuleCheck {
    /// The fault kinds of docs/faults.md.
    static let kinds = ["status", "delay", "stall", "drop", "reset", "truncate", "malformed", "slowBody", "refuse"]

    /// Problems in `scenario.faults`, pointing into the scenario file.
    static func problems(in scenario: Scenario) -> [ScenarioProblem] {
        var problems: [ScenarioProblem] = []
        for (i, rule) in scenario.faults.enumerated() {
            let pointer = "/faults/\(i)"
            guard rule.objectValue != nil else {
                problems.append(ScenarioProblem(file: scenario.displayPath, pointer: pointer, message: "expected a fault rule as a JSON object, found \(rule.typeName)"))
                continue
            }
            guard let fault = rule["fault"]?.objectValue else {
                problems.append(ScenarioProblem(file: scenario.displayPath, pointer: pointer, message: "a fault rule needs a \"fault\" object with a \"kind\""))
                continue
            }
            let kind = fault["kind"]?.stringValue ?? ""
            if !kinds.contains(kind) {
                problems.append(ScenarioProblem(file: scenario.displayPath, pointer: pointer + "/fault/kind", message: "unknown fault kind \"\(kind)\"; expected one of: \(kinds.joined(separator: ", "))"))
            }
        }
        return problems
    }
}
