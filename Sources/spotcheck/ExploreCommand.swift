import ArgumentParser
import CIReports
import Exploration
import Foundation
import MockCommands
import ReferenceClientDriver
import ScenarioEngine

/// `spotcheck explore`: generated user sessions judged by the seed model, each distinct failure shrunk to a scenario file.
struct ExploreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Generate user sessions against the embedded mock, judge them by the seeds, shrink each distinct failure to a scenario.",
        discussion: """
            Each session (inputs from per-field grammars, edits, double taps, Cancel, Try Again, faults on either step) \
            becomes an ordinary scenario with the seed model's expectations and runs like `spotcheck run` runs it. The \
            exploration runs the whole budget, groups the failing sessions by the check they broke, shrinks one per group to \
            the fewest steps, inputs, faults and stored values that still fail that check, and keeps it only if it fails \
            the same way on four fresh replays (of at most eight); a client time-out where no timing fault was planned is replayed with the \
            deadlines raised and, if it then passes, reported as a slow machine. --save writes one scenario per group that \
            `spotcheck run --scenarios DIR` fails with the same headline. Exit 0 when no counterexample was confirmed, 1 \
            on a counterexample, 2 on bad usage. See docs/explore.md.
            """
    )

    @Option(help: "Run an external client instead of PetSpotClient: a command line speaking JSON lines on stdin/stdout.")
    var client: String?

    @Option(help: "The seed of the sessions (default 1); the same seed gives the same sessions.")
    var seed: String?

    @Option(help: "How many sessions to run (default 200).")
    var runs: String?

    @Option(help: "Explore for this long instead of --runs, e.g. 30s or 2m.")
    var time: String?

    @Option(help: "How many sessions run at once (default: twice the number of cores; sessions mostly wait).")
    var jobs: String?

    @Option(help: "Write each distinct counterexample, shrunk, as a scenario file into this folder.")
    var save: String?

    @Option(name: .customLong("max-failures"), help: "Stop starting sessions once this many distinct checks have failed (default: run the whole budget).")
    var maxFailures: String?

    @Option(help: "Explore only slice i of n of the seeded budget (e.g. 2/4), for several CI runners; combine with merge-reports.")
    var shard: String?

    @Option(help: ArgumentHelp("The client profile the sessions are judged by: a name (scenarios/NAME/profile.json) or a path (default: ios-missing-pet, the seeds). Its form, input rules, alerts and success are the sessions'; a profile whose failures show no alert with Try Again and Cancel (a toast) is refused.", valueName: "name"))
    var profile: String?

    @Option(name: .customLong("contracts"), help: "The contracts folder (default: contracts/ here, else the bundled contracts), or OpenAPI documents: a file, a folder of them, or several (repeat --contracts, or separate with commas), loaded as one set.")
    var contractsList: [String] = []

    /// Every `--contracts` as the one comma-separated list `InputFolder` reads.
    var contractsDirectory: String? { contractsList.isEmpty ? nil : contractsList.joined(separator: ",") }

    @Option(help: ArgumentHelp("For OpenAPI documents: the path every operation's path is under, instead of the one servers gives.", valueName: "path"))
    var basePath: String?

    @OptionGroup var reports: ReportFileOptions

    @OptionGroup var ci: CIReportOptions

    func run() async throws {
        WarningLogging.bootstrap()
        let code = await execute(print: ConsoleOutput.shared.write, environment: ProcessInfo.processInfo.environment)
        if code != 0 { throw ExitCode(code) }
    }

    /// Runs the command, writing human output through `print`; `environment` decides the GitHub outputs; returns the exit code.
    func execute(print: @escaping @Sendable (String) -> Void, environment: [String: String] = [:]) async -> Int32 {
        // Names, keys and server answers are printed inside lines: in GitHub Actions none may start a workflow command.
        let annotate = print
        let print = WorkflowCommandGuard.guarding(print, in: environment)
        let started = Date()
        func usage(_ message: String) -> Int32 {
            print("spotcheck explore: \(message)")
            return 2
        }
        var seedValue: UInt64 = 1
        if let seed {
            guard let n = UInt64(seed) else { return usage("--seed expects a non-negative whole number; got \"\(seed)\"") }
            seedValue = n
        }
        if runs != nil, time != nil { return usage("--runs and --time are alternatives; give one") }
        var budget = Budget.standard
        if let runs {
            guard let n = Int(runs), n >= 1 else { return usage("--runs expects a whole number of at least 1; got \"\(runs)\"") }
            budget = .runs(n)
        }
        if let time {
            guard let parsed = Budget(duration: time) else { return usage("--time expects a duration such as 30s, 2m or 500ms; got \"\(time)\"") }
            budget = parsed
        }
        var jobCount = Explorer.defaultJobs()
        if let jobs {
            guard let n = Int(jobs), n >= 1 else { return usage("--jobs expects a whole number of at least 1; got \"\(jobs)\"") }
            jobCount = n
        }
        var failureLimit: Int?
        if let maxFailures {
            guard let n = Int(maxFailures), n >= 1 else { return usage("--max-failures expects a whole number of at least 1; got \"\(maxFailures)\"") }
            failureLimit = n
        }
        var slice: Shard?
        if let shard {
            guard let parsed = Shard(parsing: shard) else { return usage("--shard expects i/n with 1 ≤ i ≤ n, e.g. 2/4; got \"\(shard)\"") }
            slice = parsed
        }
        if let client, client.trimmingCharacters(in: .whitespaces).isEmpty { return usage("--client expects a command line") }
        guard let contracts = InputFolder.contracts(contractsDirectory, basePath: basePath, print: print)?.set else { return 2 }
        // The form's calls are the loaded contract set's, so faults and journal expectations name its contracts.
        var form = SessionForm(profile: SessionForm.default.profile, contracts: contracts)
        if let profile {
            guard let loaded = ProfileOption.load(profile, contracts: contracts, print: print) else { return 2 }
            form = SessionForm(profile: loaded, contracts: contracts)
            if let unsupported = form.unsupported {
                return usage("\(loaded.displayPath) cannot be explored yet: \(unsupported); run its library with `spotcheck run --profile \(profile)`")
            }
        }
        let writer: ScenarioDocument
        // The report sessions start from is the profile's library's (fixtures/default.json), else the bundled one.
        let fixtures = form.profile.libraryDirectory.appendingPathComponent("fixtures")
        let ownReport = FileManager.default.fileExists(atPath: fixtures.appendingPathComponent("default.json").path)
        do {
            writer = ScenarioDocument(baseReport: try ownReport ? ScenarioDocument.defaultReport(fixtures: fixtures) : ScenarioDocument.bundledDefaultReport())
        } catch {
            return usage("cannot read the default report of \(ownReport ? fixtures.path : "the bundled library"): \(error)")
        }
        let driver: any ClientDriver = client.map { ProcessDriver(command: $0) } ?? PetSpotClientDriver()
        let runner = SessionRunner(driver: driver, contracts: contracts, writer: writer, seed: seedValue, form: form)
        let explorer = Explorer(runner: runner, seed: seedValue, jobs: jobCount, budget: budget, maxFailures: failureLimit, shard: slice)
        let profileNote = form.profile.name == ClientProfile.defaultName ? "" : ", profile \(form.profile.name)"
        print("exploring with seed \(seedValue) against \(driver.description), \(jobCount) job\(jobCount == 1 ? "" : "s")\(profileNote)")
        let report: ExplorationReport
        do {
            report = try await explorer.explore()
        } catch {
            print("spotcheck explore: \(error.message)")
            return 2
        }
        print(report.text)
        if let save, !report.groups.isEmpty {
            do {
                for url in try Explorer.save(report.groups, in: URL(fileURLWithPath: save)) {
                    print("saved \(URL(fileURLWithPath: save).appendingPathComponent(url.lastPathComponent).relativePath)")
                }
            } catch {
                return usage("cannot save into \(save): \(error.localizedDescription)")
            }
        }
        if let message = reports.write(junit: report.junit, json: report.json.serialized(pretty: true) + "\n") { return usage(message) }
        let ciMessage = ci.write(environment: environment, print: annotate) { locator in
            var ciReport = CIReport(command: "explore", start: started, stop: Date(), results: report.ciResults(savedFolder: save, locator: &locator))
            ciReport.facts = ["seed \(seedValue); client: \(report.client)"]
            return ciReport
        }
        if let ciMessage { return usage(ciMessage) }
        return report.exitCode
    }
}
