import ContractKit
import ContractModel
import Foundation

/// Checks a scenarios folder: syntax, unknown keys, bad patterns, unknown contract ids and fault kinds.
public enum ScenarioLinter {
    /// Every problem in the folder's scenario files as `file:pointer: message`; `[]` means clean.
    /// `contracts` supplies the known contract ids; without it contract ids are not checked.
    public static func lint(directory: URL, contracts: ContractSet?) -> [LintProblem] {
        let prefix = LintPrinter.displayPath(directory)
        func shown(_ p: ScenarioProblem) -> LintProblem {
            LintProblem(file: prefix.isEmpty ? p.file : prefix + "/" + p.file, pointer: p.pointer, message: p.message)
        }
        let loaded: (scenarios: [Scenario], problems: [ScenarioProblem])
        do {
            loaded = try ScenarioLibrary.loadEach(from: directory)
        } catch {
            return error.problems.map(shown)
        }
        let known = contracts.map { Set($0.contracts.map(\.id)) }
        var semantic = loaded.scenarios.flatMap { problems(in: $0, knownContracts: known) }
        // The fields a scenario types into and expects are its profile's: the folder's own profile.json, else the
        // default. A scenario naming another profile is judged by that profile where it runs, not here.
        var profile = ClientProfile.bundledDefault
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent(ScenarioLibrary.profileFileName).path) {
            do {
                profile = try ClientProfile.load(directory.standardizedFileURL.path, scenariosDirectory: directory)
            } catch {
                semantic += error.problems
            }
        }
        semantic += loaded.scenarios.filter { $0.profile == nil || $0.profile == profile.name }.flatMap { ProfileLinter.problems(in: $0, profile: profile) }
        // Stable output: by file, then in the order found.
        let all = (loaded.problems + semantic).enumerated().sorted { ($0.element.file, $0.offset) < ($1.element.file, $1.offset) }
        return all.map { shown($0.element) }
    }

    /// Problems that need more than the file itself: contract ids against the contracts, fault rules against the fault layer.
    public static func problems(in scenario: Scenario, knownContracts: Set<String>?) -> [ScenarioProblem] {
        var problems: [ScenarioProblem] = []
        func problem(_ pointer: String, _ message: String) {
            problems.append(ScenarioProblem(file: scenario.displayPath, pointer: pointer, message: message))
        }
        func checkContract(_ id: String, at pointer: String) {
            guard let known = knownContracts, !known.contains(id) else { return }
            problem(pointer, "unknown contract id \"\(id)\"; known ids: \(known.sorted().joined(separator: ", "))")
        }
        for (i, rule) in scenario.faults.enumerated() {
            let pointer = "/faults/\(i)"
            if let id = rule["contract"]?.stringValue { checkContract(id, at: pointer + "/contract") }
        }
        let timed = scenario.faultRules.contains { $0.schedule != nil } || scenario.steps.contains { step in
            if case .setFaults(let rules) = step.action { return rules.contains { $0.schedule != nil } }
            return false
        }
        for step in scenario.steps {
            if case .advanceClock = step.action, !timed {
                problem(step.pointer + "/action", "\"advanceClock\" moves the virtual clock of time-based fault rules, but no rule of this scenario has \"outage\", \"quota\" or \"ramp\"; it would change nothing")
            }
            // A driver may answer an optional action `unsupported`; the tag is what lets the run skip instead of fail.
            if case .client(let action) = step.action, action.isOptional, !scenario.tags.contains("optional-protocol") {
                problem(step.pointer + "/action", "\"\(action.name)\" is an optional protocol action; tag the scenario \"optional-protocol\" so drivers without it skip it")
            }
            if let todo = step.todo {
                problem(step.pointer + "/todo", "expectation still missing: \(todo); write it under \"expect\" and remove \"todo\"")
            }
            if case .setFaults(let rules) = step.action {
                for (i, rule) in rules.enumerated() {
                    if let id = rule.selector.contract { checkContract(id, at: step.pointer + "/faults/\(i)/contract") }
                }
            }
            guard let journal = step.expect.journal else { continue }
            let base = step.pointer + "/expect/journal"
            for (contract, _) in journal.calls { checkContract(contract, at: JSONPointer.appending(base + "/calls", contract)) }
            for (i, contract) in (journal.order ?? []).enumerated() { checkContract(contract, at: base + "/order/\(i)") }
        }
        return problems
    }
}
