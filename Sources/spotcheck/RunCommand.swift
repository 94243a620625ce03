import ArgumentParser
import CIReports
import MockCommands
import ContractKit
import ContractModel
import Foundation
import ReferenceClientDriver
import ScenarioEngine

/// `spotcheck run`: replays scenario files against the embedded mock backend (or a real server) and checks the client.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run every scenario against the embedded mock backend (or --target) and report.",
        discussion: """
            Each scenario gets a fresh backend on an ephemeral port (or a fresh fault proxy in front of --target) and a \
            fresh client: the built-in PetSpotClient, or --client "CMD ARGS" speaking JSON lines (docs/client-protocol.md). \
            Exit 0 when every scenario passed (skips allowed), 1 when one failed, 2 on bad usage or a bad scenario file.
            """
    )

    @Option(name: .customLong("scenarios"), help: "The scenarios folder (default: scenarios/ here, else the bundled library).")
    var scenariosDirectory: String?

    @Option(name: .customLong("contracts"), help: "The contracts folder (default: contracts/ here, else the bundled contracts), or OpenAPI documents: a file, a folder of them, or several (repeat --contracts, or separate with commas), loaded as one set.")
    var contractsList: [String] = []

    /// Every `--contracts` as the one comma-separated list `InputFolder` reads.
    var contractsDirectory: String? { contractsList.isEmpty ? nil : contractsList.joined(separator: ",") }

    @Option(help: ArgumentHelp("The client profile that judges the run: a name (scenarios/NAME/profile.json) or a path; its library runs unless --scenarios names another (default: ios-missing-pet, the seeds).", valueName: "name"))
    var profile: String?

    @Option(help: ArgumentHelp("For OpenAPI documents: the path every operation's path is under, instead of the one servers gives.", valueName: "path"))
    var basePath: String?

    @Option(help: "Run an external client instead of PetSpotClient: a command line speaking JSON lines on stdin/stdout.")
    var client: String?

    @Option(help: "Run against this real server through a fresh fault proxy per scenario, e.g. http://localhost:3000.")
    var target: String?

    @Option(name: .customLong("tag"), help: "Only scenarios with this tag (repeatable; any tag matches).")
    var tags: [String] = []

    @Option(name: .customLong("filter"), help: "Only scenarios whose name or file contains this text (repeatable, case-insensitive).")
    var filters: [String] = []

    @Option(help: "Run shard K of N (e.g. 2/8); scenarios are assigned by a stable hash of their name.")
    var shard: String?

    @Option(help: "How many scenarios run at once (default: the number of cores).")
    var jobs: String?

    @Option(help: "Seed for ids, passwords and probabilistic faults (a scenario's backend.seed wins).")
    var seed: String?

    @Flag(name: .customLong("fail-fast"), help: "Start no further scenario after the first failure.")
    var failFast = false

    @OptionGroup var reports: ReportFileOptions

    @OptionGroup var ci: CIReportOptions
    @Option(name: .customLong("har-dir"), help: ArgumentHelp("Write a HAR of each failed scenario's traffic here, named after its file (default with --junit: the JUnit file's folder).", valueName: "dir"))
    var harDirectory: String?
    @Flag(name: .customLong("keep-secrets"), help: "Keep credentials, tokens and passwords in the --har-dir HARs (redacted by default; the HAR's creator.comment says which).")
    var keepSecrets = false

    @Flag(help: "List the selected scenarios (after --tag, --filter, --shard) without running them.")
    var list = false

    @Flag(help: "With --target: fail when a step sets off a listed known defect and the server answers as documented.")
    var strict = false

    @Flag(help: "Print only failures and the summary.")
    var quiet = false

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
            print("spotcheck run: \(message)")
            return 2
        }
        var selection = ScenarioSelection(filters: filters, tags: tags)
        if let shard {
            guard let parsed = Shard(parsing: shard) else { return usage("--shard expects K/N with 1 ≤ K ≤ N, e.g. 2/8; got \"\(shard)\"") }
            selection.shard = parsed
        }
        var jobCount = ProcessInfo.processInfo.activeProcessorCount
        if let jobs {
            guard let n = Int(jobs), n >= 1 else { return usage("--jobs expects a whole number of at least 1; got \"\(jobs)\"") }
            jobCount = n
        }
        var seedValue: UInt64?
        if let seed {
            guard let n = UInt64(seed) else { return usage("--seed expects a non-negative whole number; got \"\(seed)\"") }
            seedValue = n
        }
        var targetURL: URL?
        if let target {
            guard let url = URL(string: target), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                return usage("--target expects an http(s) URL such as http://localhost:3000; got \"\(target)\"")
            }
            targetURL = url
        }
        if let client, client.trimmingCharacters(in: .whitespaces).isEmpty { return usage("--client expects a command line") }

        var scenariosURL = InputFolder.resolve(scenariosDirectory, local: "scenarios", bundled: ScenarioLibrary.bundledDirectory)
        guard let contracts = InputFolder.contracts(contractsDirectory, basePath: basePath, print: print)?.set else { return 2 }
        var clientProfile = ClientProfile.bundledDefault
        if let profile {
            guard let loaded = ProfileOption.load(profile, contracts: contracts, print: print) else { return 2 }
            clientProfile = loaded
            if scenariosDirectory == nil { scenariosURL = clientProfile.libraryDirectory }
        }
        let problems = ScenarioLinter.lint(directory: scenariosURL, contracts: contracts)
        if !problems.isEmpty {
            print(LintPrinter.render(problems))
            return 2
        }
        let library: ScenarioLibrary
        do {
            library = try ScenarioLibrary.load(from: scenariosURL)
        } catch {
            print(LintPrinter.render(error.problems))
            return 2
        }
        // A scenario typing into a field its profile's flow does not have was written for another flow.
        let flowProblems = library.scenarios.flatMap { ProfileLinter.problems(in: $0, profile: clientProfile) }
        if !flowProblems.isEmpty {
            print(LintPrinter.render(flowProblems))
            return 2
        }
        let selected = selection.apply(to: library.scenarios)
        if list {
            for s in selected { print("\(s.name)  (\(s.displayPath))\(s.tags.isEmpty ? "" : "  [" + s.tags.joined(separator: ", ") + "]")") }
            print("\(selected.count) of \(library.scenarios.count) scenarios selected")
            return 0
        }
        if selected.isEmpty {
            print("no scenario matches the selection (\(library.scenarios.count) in \(LintPrinter.displayPath(scenariosURL)))")
        }

        let driver: any ClientDriver = client.map { ProcessDriver(command: $0) } ?? PetSpotClientDriver()
        let targets: any TargetProvider = targetURL.map { ProxyTargetProvider(upstream: $0, contracts: contracts) }
            ?? EmbeddedBackendProvider(contracts: contracts)
        var scenarioRunner = ScenarioRunner(driver: driver, targets: targets, seed: seedValue)
        scenarioRunner.profile = clientProfile
        // Against a real server, an answer listed in known-defects.json is a known defect, not a failure.
        if targetURL != nil { scenarioRunner.knownDefects = contracts.knownDefects }
        let harFolder = harDirectory ?? reports.junit.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        scenarioRunner.keepsFailedExchanges = harFolder != nil
        let runner = SuiteRunner(runner: scenarioRunner, jobs: jobCount, failFast: failFast)
        if !quiet {
            print("running \(selected.count) scenario\(selected.count == 1 ? "" : "s") from \(LintPrinter.displayPath(scenariosURL)) with \(jobCount) job\(jobCount == 1 ? "" : "s")\(selection.shard.map { ", shard \($0)" } ?? "")")
        }
        let quiet = self.quiet
        var report = await runner.run(selected) { result in
            if !quiet || result.status == .failed { print(ConsoleReporter.line(for: result)) }
        }
        report.strictKnownDefects = strict
        print(ConsoleReporter.summary(report))
        let suiteName = "spotcheck" + (selection.shard.map { " shard \($0)" } ?? "")
        if let message = reports.write(report, suiteName: suiteName, folder: LintPrinter.displayPath(scenariosURL)) { return usage(message) }
        let ciMessage = ci.write(environment: environment, print: annotate) { locator in
            let results = report.ciResults(suite: suiteName, folder: LintPrinter.displayPath(scenariosURL), locator: &locator)
            var ciReport = CIReport(command: "run", start: started, stop: Date(), results: results)
            ciReport.facts = ["client: \(report.client); target: \(report.target)"] + (seedValue.map { ["seed \($0)"] } ?? [])
            return ciReport
        }
        if let ciMessage { return usage(ciMessage) }
        if let harFolder {
            do {
                let secrets = keepSecrets ? nil : SecretNames(contracts: contracts)
                for file in try FailedScenarioHAR.write(report, to: URL(fileURLWithPath: harFolder), secrets: secrets) { print("traffic of a failed scenario: \(file.path)") }
            } catch {
                return usage("cannot write the HAR files to \(harFolder): \(FileErrorText.reason(error))")
            }
        }
        return report.exitCode
    }
}

/// Serialises lines from scenarios finishing in parallel so they never interleave.
final class ConsoleOutput: Sendable {
    static let shared = ConsoleOutput()
    private let lock = NSLock()

    @Sendable func write(_ line: String) {
        lock.withLock {
            FileHandle.standardOutput.write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
        }
    }
}
