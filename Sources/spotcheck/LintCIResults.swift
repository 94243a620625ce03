import CIReports
import ContractKit
import ContractModel
import Foundation

/// `lint`'s results for CI reports: each problem at its line, and each file checked without a problem as passed.
enum LintCIResults {
    /// Rule ids and their descriptions, for SARIF.
    static let rules = [
        "spotcheck/lint/json-syntax": "The file is not valid JSON",
        "spotcheck/lint/contract": "A contract, shared schema, fixture or known-defect entry breaks the contract format (contracts/README.md)",
        "spotcheck/lint/scenario": "A scenario breaks the scenario format or names what the contracts do not have (scenarios/README.md)",
    ]

    /// The report of one lint: `contractProblems` and `scenarioProblems` as found, `checkedFiles` every file looked at.
    static func report(contractProblems: [LintProblem], scenarioProblems: [LintProblem], checkedFiles: [URL], start: Date,
                       locator: inout SourceLocator) -> CIReport
    {
        var results: [CIResult] = []
        var troubled: Set<String> = []
        for (problems, kind) in [(contractProblems, "contract"), (scenarioProblems, "scenario")] {
            for problem in problems {
                troubled.insert(URL(fileURLWithPath: problem.file).standardizedFileURL.path)
                var location = locator.location(file: problem.file, pointer: problem.line == nil ? problem.pointer : nil)
                if let line = problem.line {
                    location.line = line
                    location.column = problem.column
                }
                let place = problem.line.map { ":\($0)" } ?? (problem.pointer.isEmpty ? "" : " " + problem.pointer)
                results.append(CIResult(
                    name: "\(URL(fileURLWithPath: problem.file).lastPathComponent)\(place)", suite: ["spotcheck lint", kind + "s"], status: .failed, message: problem.message,
                    location: location, rule: problem.line != nil ? "spotcheck/lint/json-syntax" : "spotcheck/lint/\(kind)"))
            }
        }
        for file in checkedFiles where !troubled.contains(file.standardizedFileURL.path) {
            let location = locator.location(file: LintPrinter.displayPath(file), pointer: nil)
            results.append(CIResult(name: location.file, suite: ["spotcheck lint"], status: .passed, location: location))
        }
        var report = CIReport(command: "lint", start: start, stop: Date(), results: results)
        report.ruleDescriptions = rules
        return report
    }

    /// Every JSON file under `directory` (contracts, shared schemas, fixtures, the known-defects list), sorted.
    static func jsonFiles(under directory: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.path < $1.path }
    }
}
