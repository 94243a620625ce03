import ArgumentParser
import ContractKit
import ContractModel
import Foundation
import HTTPArchive
import MockCommands
import ScenarioEngine

/// `spotcheck import har FILE`: a HAR from Proxyman, Charles, Chrome, Firefox or SpotCheck as fixtures, contract examples
/// and a scenario skeleton.
struct ImportHARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Turn a HAR into a fixtures file, contract examples and a scenario skeleton that replays it (docs/har.md).",
        discussion: """
            Writes scenarios/har-NAME.json (the session's user actions, its 5xx answers, timeouts and lost connections as \
            fault rules, a "todo" where the app's reaction is to be written; spotcheck lint lists them), \
            scenarios/fixtures/har-NAME.json (the announcements seen) and merges the exchanges into contracts/ as examples \
            (spotcheck merge-recordings; exchanges that broke a contract are reported, not merged). Authorization, cookies \
            and management passwords are redacted unless --keep-secrets. Nothing is written when any part fails. \
            Exit 0 imported, 2 on a bad HAR, a HAR of another API, or contracts that would not lint.
            """
    )

    @Argument(help: "The HAR file.")
    var file: String

    @Option(help: ArgumentHelp("The project folder holding contracts/ and scenarios/.", valueName: "dir"))
    var into: String = "."

    @Flag(name: .customLong("keep-secrets"), help: "Keep Authorization, cookie values and management passwords as recorded.")
    var keepSecrets = false

    func run() throws {
        try Self.execute(file: file, into: into, keepSecrets: keepSecrets).finish()
    }

    /// Imports and says what to print and how to exit.
    static func execute(file: String, into: String, keepSecrets: Bool) -> CommandOutcome {
        func fail(_ message: String) -> CommandOutcome { CommandOutcome(output: "spotcheck import har: \(message)\n", exitCode: 2) }
        let root = URL(fileURLWithPath: into)
        // An import killed part way is rolled back before the contracts are read, so they are read as they were.
        do { try FileTransaction.recover(root: root) } catch { return fail(error.description) }
        let contracts: ContractSet
        do {
            contracts = try ContractSet.load(from: root.appendingPathComponent("contracts"))
        } catch {
            return fail("the contracts in \(root.appendingPathComponent("contracts").path) do not load:\n" + LintPrinter.render(error.problems))
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
            return fail("cannot read \(file): \(FileErrorText.reason(error))")
        }
        let plan: HARImport.Plan
        do {
            plan = try HARImport.plan(try HARReader.read(data, file: file), file: file, contracts: contracts, keepSecrets: keepSecrets)
        } catch {
            return fail(error.description)
        }
        let scenarios = root.appendingPathComponent("scenarios")
        let outcome: HARImport.Outcome
        do {
            outcome = try HARImport.write(plan, contracts: contracts, scenarios: scenarios)
        } catch {
            let what = error.partial ? "the import failed and could not be fully rolled back: " : "nothing was written: "
            return fail(what + error.description + plan.broken.map { "\nbroke its contract: \($0)" }.joined())
        }
        var out = "\(file): \(plan.exchanges.count) exchange\(plan.exchanges.count == 1 ? "" : "s") matched a contract"
        out += plan.unmatched.isEmpty ? "\n" : ", \(plan.unmatched.count) did not and were left out (first: \(plan.unmatched[0]))\n"
        out += plan.broken.map { "broke its contract, not merged: \($0)\n" }.joined()
        out += plan.undeclaredQuery.map { "query parameter no contract declares, left out: \($0)\n" }.joined()
        out += outcome.merged.map { "merged \($0)\n" }.joined() + outcome.skipped.map { "skipped \($0)\n" }.joined()
        for file in outcome.written { out += "wrote \(file.path)\n" }
        if !keepSecrets { out += "secrets redacted (Authorization, cookies, tokens and passwords the contracts declare, secret-looking query values); --keep-secrets keeps them\n" }
        let todo = ScenarioLinter.lint(directory: scenarios, contracts: contracts).filter { $0.file.hasSuffix(plan.name + ".json") }
        if todo.isEmpty {
            out += "the scenario lints clean: spotcheck run --filter \(plan.name)\n"
        } else {
            out += "still to write before it runs (spotcheck lint lists these):\n" + LintPrinter.render(todo)
        }
        return CommandOutcome(output: out, exitCode: 0)
    }
}
