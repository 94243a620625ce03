import ContractKit
import Foundation
import MockCommands
import ScenarioEngine

/// `--profile P` of the commands that judge a client: a name looked up where the library would be (scenarios/ here,
/// else the bundled folder) or a path, loaded and checked against the contracts. `nil` after printing the problems.
enum ProfileOption {
    static func load(_ profile: String, contracts: ContractSet, print: (String) -> Void) -> ClientProfile? {
        let home = InputFolder.resolve(nil, local: "scenarios", bundled: ScenarioLibrary.bundledDirectory)
        let loaded: ClientProfile
        do {
            loaded = try ClientProfile.load(profile, scenariosDirectory: home)
        } catch {
            print(LintPrinter.render(error.problems))
            return nil
        }
        let problems = ProfileLinter.lint(loaded, contracts: contracts)
        if !problems.isEmpty {
            print(LintPrinter.render(problems))
            return nil
        }
        return loaded
    }
}
