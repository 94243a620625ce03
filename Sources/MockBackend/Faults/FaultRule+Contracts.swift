import ContractKit
import ContractModel

extension FaultRule {
    /// Refuses rules whose selector names a contract that does not exist: such a rule would load and never fire, so a
    /// typo (`getAnnouncment`) would silently disable it. The error names the id, the closest known one and `source`.
    public static func checkContracts(_ rules: [FaultRule], known: [String], source: String) throws(FaultRuleError) {
        for (index, rule) in rules.enumerated() {
            guard let id = rule.selector.contract, !known.contains(id) else { continue }
            let hint = NameSuggestion.closest(to: id, among: known).map { "; did you mean \"\($0)\"?" } ?? ""
            let which = rules.count > 1 ? "rule \(index)\(rule.name.map { " (\"\($0)\")" } ?? "") names" : "names"
            throw FaultRuleError(file: source, pointer: "",
                message: "\(which) the unknown contract \"\(id)\"\(hint) (known contracts: \(known.sorted().joined(separator: ", ")))")
        }
    }
}
