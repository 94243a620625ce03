import CIReports
import ContractKit
import ContractModel
import Foundation

/// `diff`'s results for CI reports: each change at its line of the new contract file (a removed file has no line).
enum DiffCIResults {
    /// The report of one comparison; a breaking change fails unless `allowBreaking`, when it is a warning.
    static func report(_ changes: [ContractChange], allowBreaking: Bool, facts: [String], start: Date, locator: inout SourceLocator) -> CIReport {
        let results = changes.map { change in
            var result = CIResult(name: "\(change.contract): \(change.kind.rawValue)", suite: ["spotcheck diff", change.contract], status: .passed,
                                  message: change.message, rule: rule(change.kind), level: .notice, rawStatus: change.severity.rawValue)
            if FileManager.default.fileExists(atPath: change.file) {
                result.location = locator.location(file: change.file, pointer: change.pointer)
            }
            if change.severity == .breaking {
                result.status = allowBreaking ? .other : .failed
                result.level = allowBreaking ? .warning : .error
            }
            return result
        }
        var report = CIReport(command: "diff", start: start, stop: Date(), results: results)
        report.facts = facts
        for kind in Set(changes.map(\.kind)) {
            report.ruleDescriptions[rule(kind)] = "A contract change of class \(kind.rawValue), classified for existing clients"
        }
        return report
    }

    static func rule(_ kind: ContractChange.Kind) -> String { "spotcheck/diff/\(kind.rawValue)" }
}
