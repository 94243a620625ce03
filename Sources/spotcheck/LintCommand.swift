import ArgumentParser
import CIReports
import MockCommands
import ContractKit
import ContractModel
import Foundation
import ScenarioEngine

/// `spotcheck lint [DIR]`: checks a contracts folder (and the scenarios) and prints every problem as `file:pointer: message`.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check contract files (JSON syntax, keys, ids, $refs, schemas, examples) and scenario files.",
        discussion: "Prints one `file:pointer: message` line per problem. Exit 0 when clean, 2 on problems."
    )

    @Argument(help: "The contracts folder (default: contracts/ in the working directory), or OpenAPI documents (a file, or files separated by commas).")
    var directory: String = "contracts"

    @Option(help: ArgumentHelp("For OpenAPI documents: the path every operation's path is under, instead of the one servers gives.", valueName: "path"))
    var basePath: String?

    @Flag(help: "For OpenAPI documents: warnings (what cannot be served, contradictions) are problems too.")
    var strict = false

    @Option(help: "The scenarios folder to check too (default: scenarios/ in the working directory, when present).")
    var scenarios: String?

    @Option(help: ArgumentHelp("Check this client profile too (a name under the scenarios folder, or a path): its file, the rules the contracts make impossible, and rules that conflict.", valueName: "name"))
    var profile: String?

    @Option(help: ArgumentHelp("Check a recording folder (spotcheck proxy --record DIR) instead: examples against their schemas, and recorded violations.", valueName: "dir"))
    var recordings: String?

    @OptionGroup var ci: CIReportOptions

    @OptionGroup var sarifOption: SARIFOption

    func validate() throws {
        if recordings != nil, ci.ctrf != nil || ci.summary != nil || sarifOption.sarif != nil {
            throw ValidationError("--ctrf, --summary and --sarif report the contracts and scenarios; they do not apply to --recordings")
        }
    }

    func run() throws {
        if let recordings { return try Self.lintRecordings(recordings).finish() }
        var isDirectory: ObjCBool = false
        // The working directory's scenarios are written against its contract folder: a team's OpenAPI document is
        // linted on its own unless --scenarios names a library written for it.
        let local = FileManager.default.fileExists(atPath: "scenarios", isDirectory: &isDirectory) && isDirectory.boolValue
            && !directory.split(separator: ",").contains { ContractSet.isDocument(URL(fileURLWithPath: String($0))) }
        let request = ci.request(environment: ProcessInfo.processInfo.environment, sarif: sarifOption.sarif)
        try Self.execute(directory: directory, scenarios: scenarios ?? (local ? "scenarios" : nil), ci: request,
                         strict: strict, basePath: basePath, profile: profile).finish()
    }

    /// Lints `directory` (and `scenarios`, when given), writes the CI reports `ci` asks for, and says what to print and how to exit.
    static func execute(directory: String, scenarios: String? = nil, ci: CIReportRequest = .none, strict: Bool = false,
                        basePath: String? = nil, profile: String? = nil) -> CommandOutcome {
        let started = Date()
        // One load: it lints, and its error lists every problem.
        // `serve` starts without entries it cannot read (and warns); lint fails on them, since the contract the author
        // thinks is there is not checked. A document's warnings (parts served around) fail it only under --strict.
        let isDocument = InputFolder.documents(directory) != nil
        var contractProblems = isDocument ? [] : ContractSet.warnings(directory: URL(fileURLWithPath: directory))
        var contracts: ContractSet?
        var warningLines = ""
        do {
            contracts = try InputFolder.load(directory, basePath: basePath)
            if isDocument, let warnings = contracts?.warnings {
                if strict { contractProblems += warnings } else { warningLines = warnings.map { "warning: \($0)\n" }.joined() }
            }
        } catch {
            contractProblems += error.problems
        }
        // Contract ids in scenarios are checked only against contracts that load; their own problems are listed above.
        var scenarioProblems = scenarios.map { ScenarioLinter.lint(directory: URL(fileURLWithPath: $0), contracts: contracts) } ?? []
        var profileLine = ""
        if let profile {
            let home = scenarios.map { URL(fileURLWithPath: $0) } ?? ScenarioLibrary.bundledDirectory
            do {
                let loaded = try ClientProfile.load(profile, scenariosDirectory: home)
                scenarioProblems += ProfileLinter.lint(loaded, contracts: contracts)
                if let scenarios, let library = try? ScenarioLibrary.loadEach(from: URL(fileURLWithPath: scenarios)) {
                    let prefix = LintPrinter.displayPath(URL(fileURLWithPath: scenarios))
                    scenarioProblems += library.scenarios.flatMap { ProfileLinter.problems(in: $0, profile: loaded) }.map {
                        LintProblem(file: prefix.isEmpty ? $0.file : prefix + "/" + $0.file, pointer: $0.pointer, message: $0.message)
                    }
                }
                profileLine = "\(loaded.displayPath): client profile \(loaded.name), no problems\n"
            } catch {
                scenarioProblems += error.problems
            }
        }
        let problems = contractProblems + scenarioProblems
        var annotations = ""
        let ciMessage = ci.write(print: { annotations += $0 + "\n" }) { locator in
            let scenarioFiles = scenarios.flatMap { try? ScenarioLibrary.scenarioFiles(in: URL(fileURLWithPath: $0)) } ?? []
            return LintCIResults.report(contractProblems: contractProblems, scenarioProblems: scenarioProblems,
                                        checkedFiles: LintCIResults.jsonFiles(under: URL(fileURLWithPath: directory)) + scenarioFiles,
                                        start: started, locator: &locator)
        }
        // File names and contract keys are printed inside lines: in GitHub Actions none may start a workflow command.
        let safe = { (text: String) in WorkflowCommandGuard.text(text, in: ci.environment) }
        if let ciMessage { return CommandOutcome(output: annotations + safe("spotcheck lint: \(ciMessage)\n"), exitCode: 2) }
        guard problems.isEmpty else { return CommandOutcome(output: annotations + safe(LintPrinter.render(problems)), exitCode: 2) }
        let count = contracts?.contracts.count ?? 0
        var output = warningLines + "\(directory): \(count) contract\(count == 1 ? "" : "s"), no problems\n"
        // Rules without stated answers still work (the model names the rule broken), so they warn without failing.
        output = (contracts?.unstatedRules ?? []).map { "warning: \($0)\n" }.joined() + output
        if let defects = contracts?.knownDefects, !defects.isEmpty {
            output = "\(directory)/\(KnownDefect.fileName): \(defects.count) known server defect\(defects.count == 1 ? "" : "s"), each with a reason\n" + output
        }
        if let scenarios {
            let files = (try? ScenarioLibrary.scenarioFiles(in: URL(fileURLWithPath: scenarios)).count) ?? 0
            output += "\(scenarios): \(files) scenario\(files == 1 ? "" : "s"), no problems\n"
        }
        output += profileLine
        return CommandOutcome(output: safe(output), exitCode: 0)
    }
}
