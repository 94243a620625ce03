import ArgumentParser
import CIReports
import MockCommands
import ContractKit
import ContractModel
import Exploration
import Foundation
import ScenarioEngine

/// `spotcheck verify`: provider verification of a real server against the contracts.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that a server answers as the contracts document (provider verification).",
        discussion: """
            Sends every documented example to --target in a stateful order: creates its own announcement, uploads a \
            photo with the returned id and managementPassword, reads and lists it, then provokes each documented error. \
            It creates announcements (listed at the end) and never deletes or changes anything else. \
            An answer that matches an entry of contracts/known-defects.json is reported as a known server defect, not a \
            failure; an entry whose answer came out as documented is reported as no longer seen (a failure under --strict). \
            Then it explores: requests generated from the contracts (each field alone and in pairs, auth, multipart, list \
            parameters, the routes beyond the contracts) go to --target and to an embedded model of the same contracts; \
            each difference is shrunk to a minimal request and grouped by rule (--cases/--time budget, --seed reproduces, \
            --no-explore skips it; see docs/verify.md). \
            A difference on a rule the contracts state is a failure; one where the contracts state nothing (the model \
            had to assume, and says what) is a note, and fails only under --strict. \
            Exit 0 when every answer matches or differs only in notes, 1 on a failure, 2 on bad usage or bad contracts.
            """
    )

    @Option(help: "The server to verify, e.g. http://localhost:3000.")
    var target: String?

    @Option(name: .customLong("contracts"), help: ArgumentHelp(
        "The contracts folder (default: contracts/ here, else the bundled contracts), or OpenAPI documents: a file, a folder of them, "
            + "or several (repeat --contracts, or separate with commas), verified as one set.", valueName: "folder|document"))
    var contractsList: [String] = []

    /// Every `--contracts` as the one comma-separated list `InputFolder` reads.
    var contractsDirectory: String? { contractsList.isEmpty ? nil : contractsList.joined(separator: ",") }

    @Option(help: ArgumentHelp("For OpenAPI documents: the path every operation's path is under, instead of the one servers gives.", valueName: "path"))
    var basePath: String?

    @Flag(name: .customLong("dry-run"), help: "Print the plan without sending anything.")
    var dryRun = false

    @Option(help: "Seconds to wait for each answer.")
    var timeout: Double = 30

    @Option(name: .customLong("skip"), help: "Leave out the checks whose name contains this text (repeatable, case-insensitive).")
    var skipped: [String] = []

    @Option(name: .customLong("admin-token"), help: "The server's admin credential (the whole Authorization value for DELETE); includes the admin checks instead of skipping them.")
    var adminToken: String?

    @Flag(name: .customLong("ignore-messages"), help: "Do not compare error messages (for servers that localise them).")
    var ignoreMessages = false

    @Flag(help: "Fail on notes (differences where the contracts state nothing and the model assumed) and when a known defect listed in known-defects.json was not seen.")
    var strict = false

    @Flag(name: .customLong("no-explore"), help: "Send only the documented examples (no generated requests).")
    var noExplore = false

    @Option(help: "The most generated requests to explore with (default \(RequestExplorer.defaultCases) without --time).")
    var cases: Int?

    @Option(help: "Explore for this long, e.g. 30s or 2m (shrinking comes on top).")
    var time: String?

    @Option(help: "The seed of the generated requests (default: a random one, printed).")
    var seed: UInt64?

    @Option(name: .customLong("formats"), help: ArgumentHelp(
        "How a format an answer breaks (uri, uri-reference, date-time, date, email, uuid, ipv4, ipv6) counts: strict (a failure, "
            + "the default) or lenient (a note). A format a request breaks is always a note.", valueName: "strict|lenient"))
    var formats = "strict"

    @Flag(name: .customLong("strict-headers"), help: "Fail on headers the server adds or stops sending compared with the model.")
    var strictHeaders = false

    @Option(name: .customLong("save-walks"), help: "Write each walk that differs into this folder, one file per walk, for --replay-walk.")
    var saveWalks: String?

    @Option(name: .customLong("replay-walk"), help: "Replay a walk file saved by --save-walks instead of exploring (the documented examples are skipped).")
    var replayWalk: String?

    @Option(name: .customLong("secret"), help: ArgumentHelp(
        "A key the server was deployed with, as NAME=VALUE (repeatable): token=VALUE checks jwt-hs256 signatures under it "
            + "(default: the environment variable the contract names, e.g. JWT_SECRET; without either, signatures are not checked).",
        valueName: "name=value"))
    var secrets: [String] = []

    @Option(help: ArgumentHelp(
        "A server to compare --target with, request for request (the version you run today), or a file --record-baseline "
            + "wrote: a difference a contract states fails as usual, any other is a change, and changes fail too unless "
            + "--accept lists them.", valueName: "url-or-file"))
    var baseline: String?

    @Option(name: .customLong("record-baseline"), help: ArgumentHelp(
        "Record --target's answers to the seeded exploration into this file (a known-good server), for a later --baseline "
            + "FILE run with the same seed and --cases; the exploration judges nothing then.", valueName: "file"))
    var recordBaseline: String?

    @Option(help: ArgumentHelp("With --baseline: a JSON file of reviewed changes ({\"accepted\": [{\"operation\", \"pointer\" or \"header\"}]}).",
                               valueName: "file"))
    var accept: String?

    @OptionGroup var reports: ReportFileOptions

    @OptionGroup var ci: CIReportOptions

    func run() async throws {
        let code = await execute(print: ConsoleOutput.shared.write, environment: ProcessInfo.processInfo.environment)
        if code != 0 { throw ExitCode(code) }
    }

    /// Runs the command, writing human output through `print`; `environment` decides the GitHub outputs; returns the exit code.
    func execute(print: @escaping @Sendable (String) -> Void, environment: [String: String] = [:]) async -> Int32 {
        // Names, keys and server answers are printed inside lines: in GitHub Actions none may start a workflow command.
        let annotate = print
        let print = WorkflowCommandGuard.guarding(print, in: environment)
        let started = Date()
        guard let (loaded, contractsURL) = InputFolder.contracts(contractsDirectory, basePath: basePath, print: print) else { return 2 }
        var contracts = loaded
        do {
            contracts.deploymentSecrets = try DeploymentSecrets.resolve(options: secrets, contracts: contracts, environment: environment)
        } catch {
            print("spotcheck verify: \(error)")
            return 2
        }
        var walkToReplay: WalkCase?
        if let replayWalk {
            do {
                walkToReplay = try WalkCase.parse(try Data(contentsOf: URL(fileURLWithPath: replayWalk)), file: replayWalk)
            } catch let error as WalkCaseError {
                print("spotcheck verify: --replay-walk: \(error)")
                return 2
            } catch {
                print("spotcheck verify: --replay-walk: cannot read \(replayWalk): \(error.localizedDescription)")
                return 2
            }
        }
        let replaying = walkToReplay != nil
        func planned(_ contracts: ContractSet) -> [VerificationCheck] {
            VerificationPlanner.plan(for: contracts, adminChecks: adminToken != nil).filter { check in
                !replaying && !skipped.contains { check.name.localizedCaseInsensitiveContains($0) }
            }
        }
        let fullPlan = planned(contracts)
        if dryRun {
            print(VerificationPlanner.describe(fullPlan))
            if !noExplore {
                let systematic = RequestGenerator(contracts: contracts, adminChecks: adminToken != nil).systematicCases().count
                let budget = cases.map { "at most \($0)" } ?? time.map { "for \($0)," } ?? "at most \(RequestExplorer.defaultCases)"
                print("then exploration: generated requests \(budget) (\(systematic) systematic first, then random pairs), "
                    + "each sent to the target and an embedded model")
            }
            print("\(fullPlan.count) checks; nothing was sent")
            return 0
        }
        guard ["strict", "lenient"].contains(formats) else {
            print("spotcheck verify: --formats expects strict or lenient; got \"\(formats)\"")
            return 2
        }
        guard let target, let url = URL(string: target), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            print("spotcheck verify: --target expects an http(s) URL such as http://localhost:3000; got \"\(target ?? "")\"")
            return 2
        }
        // Bounded so seconds → milliseconds cannot overflow.
        guard timeout > 0, timeout <= 86_400 else {
            print("spotcheck verify: --timeout expects a positive number of seconds, at most 86400 (a day); got \(timeout)")
            return 2
        }
        if let cases, cases < 1 {
            print("spotcheck verify: --cases expects a positive number of generated requests; got \(cases)")
            return 2
        }
        var baselineURL: URL?
        var baselineRecording: BaselineRecording?
        if let baseline {
            if let parsed = URL(string: baseline), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil {
                baselineURL = parsed
            } else if FileManager.default.fileExists(atPath: baseline) {
                do {
                    baselineRecording = try BaselineRecording(reading: try Data(contentsOf: URL(fileURLWithPath: baseline)), file: baseline)
                } catch let error as BaselineRecordingError {
                    print("spotcheck verify: --baseline: \(error)")
                    return 2
                } catch {
                    print("spotcheck verify: --baseline: cannot read \(baseline): \(FileErrorText.reason(error))")
                    return 2
                }
            } else {
                print("spotcheck verify: --baseline expects an http(s) URL such as http://localhost:3001, or a file --record-baseline wrote; got \"\(baseline)\" (no such file)")
                return 2
            }
        }
        if recordBaseline != nil, baseline != nil {
            print("spotcheck verify: --record-baseline records --target itself; it takes no --baseline")
            return 2
        }
        if let settings = baselineRecording?.settings {
            // The replay must ask for what was recorded: the recording's seed and budget, unless they were given alike.
            if let seed, seed != settings.seed {
                print("spotcheck verify: --baseline \(baseline ?? ""): recorded with --seed \(settings.seed), not \(seed); leave --seed out or give \(settings.seed)")
                return 2
            }
            if let cases, cases != settings.cases {
                print("spotcheck verify: --baseline \(baseline ?? ""): recorded with --cases \(settings.cases.map(String.init) ?? "(default)"), not \(cases)")
                return 2
            }
        }
        var accepted = AcceptedChanges()
        if let accept {
            guard baselineURL != nil || baselineRecording != nil else {
                print("spotcheck verify: --accept lists changes against a baseline; give --baseline too")
                return 2
            }
            do {
                accepted = try AcceptedChanges.parse(try Data(contentsOf: URL(fileURLWithPath: accept)), file: accept)
            } catch let error as AcceptedChangesError {
                print("spotcheck verify: --accept: \(error)")
                return 2
            } catch {
                print("spotcheck verify: --accept: cannot read \(accept): \(error.localizedDescription)")
                return 2
            }
        }
        let budget: Duration?
        if let time {
            guard let parsed = Self.duration(time) else {
                print("spotcheck verify: --time expects a duration such as 30s, 2m or 90; got \"\(time)\"")
                return 2
            }
            budget = parsed
        } else {
            budget = nil
        }
        // A base path or route the target does not serve is one finding, not a failure per request sent under it; the
        // rest runs under --base-path, or under a base path a probe finds serving the same operations.
        let probeTimeout = Duration.milliseconds(Int(timeout * 1000))
        var served = await ServedRouteProbe(contracts: contracts, target: url, timeout: probeTimeout).probe()
        var documentFinding: ServedRouteProbe.Finding?
        if InputFolder.documents(contractsDirectory) != nil {
            if basePath != nil, served.findings.isEmpty, let own = try? InputFolder.load(contractsDirectory) {
                // The base path the documents themselves state is still a finding when --base-path serves.
                documentFinding = await ServedRouteProbe(contracts: own, target: url, timeout: probeTimeout).probe().findings.first { $0.basePath != nil }
                documentFinding?.servedUnder = (basePath ?? "", "--base-path")
            } else if basePath == nil, var finding = served.findings.first(where: { $0.basePath != nil }), let unserved = finding.basePath {
                for rewrite in ServedRouteProbe.candidateRewrites(contracts, unserved: unserved) {
                    guard var rebased = try? InputFolder.load(contractsDirectory, prefixRewrite: rewrite) else { continue }
                    let probed = await ServedRouteProbe(contracts: rebased, target: url, timeout: probeTimeout).probe()
                    guard probed.findings.isEmpty, probed.judged > 0 else { continue }
                    rebased.deploymentSecrets = contracts.deploymentSecrets
                    finding.servedUnder = (rewrite.to + unserved.dropFirst(rewrite.from.count), "a probe found the same operations served there")
                    documentFinding = finding
                    contracts = rebased
                    served = probed
                    break
                }
            }
        }
        let routeResults = (documentFinding.map { [$0] } ?? []).map { $0.result(citation: $0.citation(in: contracts)) }
            + served.findings.map { $0.result(citation: $0.citation(in: contracts)) }
        if let documentFinding { print("✗ \(routeResults[0].file): \(documentFinding.message)") }
        for (finding, result) in zip(served.findings, routeResults.suffix(served.findings.count)) { print("✗ \(result.file): \(finding.message)") }
        let plan = (documentFinding?.servedUnder?.why == "--base-path" || documentFinding == nil ? fullPlan : planned(contracts))
            .filter { !served.unserved.contains($0.contractID) }
        print("verifying \(url.absoluteString) against \(plan.count) documented answers from \(LintPrinter.displayPath(contractsURL))")
        let tokenCheck = contracts.deploymentSecrets.tokenCheckLine(for: contracts)
        if let tokenCheck { print(tokenCheck) }
        var verifier = ProviderVerifier(contracts: contracts, target: url, timeout: timeout)
        verifier.ignoreMessages = ignoreMessages
        verifier.adminToken = adminToken
        verifier.strict = strict
        verifier.lenientFormats = formats == "lenient"
        let outcome = await verifier.verify(plan)
        for result in outcome.report.results { print(ConsoleReporter.line(for: result)) }
        print("created \(outcome.createdRecords.count) record(s) on the server: "
            + (outcome.createdRecords.isEmpty ? "none" : outcome.createdRecords.joined(separator: ", ")))
        var explorationSeed: UInt64?
        var results = routeResults + outcome.report.results.map { result in
            var result = result
            result.tags.append("examples")
            return result
        }
        let servedContracts = contracts.contracts.filter { !served.unserved.contains($0.id) }
        if !noExplore && !servedContracts.isEmpty {
            let recorded = baselineRecording?.settings
            var options = RequestExplorer.Options(seed: seed ?? recorded?.seed ?? walkToReplay?.seed ?? UInt64.random(in: 1...UInt64(UInt32.max)))
            options.replayWalk = walkToReplay
            explorationSeed = options.seed
            options.cases = cases ?? recorded?.cases
            options.baselineRecording = baselineRecording
            if recordBaseline != nil {
                options.recordBaseline = BaselineRecording(recording: .init(seed: options.seed, cases: options.cases, walks: options.walks,
                                                                             server: url.absoluteString))
            }
            options.duration = budget
            options.ignoreMessages = ignoreMessages
            options.adminToken = adminToken
            options.timeout = .milliseconds(Int(timeout * 1000))
            options.baseline = baselineURL
            var explored = servedContracts.count == contracts.contracts.count ? contracts
                : ContractSet(directory: contracts.directory, contracts: servedContracts, schemas: contracts.schemas, validator: contracts.validator,
                              knownDefects: contracts.knownDefects, warnings: contracts.warnings, service: contracts.service)
            explored.deploymentSecrets = contracts.deploymentSecrets
            if DocumentExplorer.applies(to: explored) {
                // No state is declared, so no model can keep in step: the requests are judged by the stated rules alone.
                var explorer = DocumentExplorer(contracts: explored, target: url, cases: cases ?? RequestExplorer.defaultCases, timeout: options.timeout)
                explorer.lenientFormats = formats == "lenient"
                let exploration = await explorer.explore()
                for line in exploration.consoleLines { print(line) }
                results += exploration.results(strict: strict)
            } else {
                let explorer = RequestExplorer(contracts: explored, target: url, options: options)
                if let recordBaseline, let recording = options.recordBaseline {
                    let exploration = await explorer.explore()
                    if let reason = exploration.setupFailure {
                        print("spotcheck verify: --record-baseline: nothing recorded: \(reason)")
                        return 1
                    }
                    do {
                        try SafeFileWrite.write(await recording.serialized(), to: recordBaseline, append: false)
                    } catch {
                        print("spotcheck verify: --record-baseline: cannot write \(recordBaseline): \(FileErrorText.reason(error))")
                        return 2
                    }
                    print("recorded \(await recording.count) answers of \(url.absoluteString) to the seeded exploration (seed \(options.seed)) in \(recordBaseline); "
                          + "compare a later server with: spotcheck verify --target URL --baseline \(recordBaseline)")
                } else {
                    let (exploration, acceptedGroups) = await explorer.explore().removing(accepted)
                    // Against a baseline every change fails unless reviewed: the gate is "nothing changed that nobody looked at".
                    let failsOnNotes = strict || baselineURL != nil || baselineRecording != nil
                    if let baselineURL { print("compared with the baseline \(baselineURL.absoluteString): a difference no contract states is a change") }
                    if let baselineRecording, let baseline {
                        let settings = baselineRecording.settings
                        print("compared with the baseline recorded in \(baseline) (\(settings.server), \(await baselineRecording.count) answers, seed \(settings.seed)): "
                              + "a difference no contract states is a change; nothing is shrunk")
                        let unanswered = await baselineRecording.unanswered
                        if !unanswered.isEmpty {
                            print("  \(unanswered.count) request(s) the recording holds no answer to (recorded with other contracts or options?); first: \(unanswered[0])")
                        }
                    }
                    for line in ExplorationResults.consoleLines(exploration, strictHeaders: strictHeaders, strict: failsOnNotes) { print(line) }
                    for group in acceptedGroups { print("  ✓ accepted change (\(accept ?? "")): \(group.headline)") }
                    results += ExplorationResults.results(exploration, strictHeaders: strictHeaders, strict: failsOnNotes)
                    if let saveWalks, let message = Self.save(exploration.groups.compactMap(\.walkCase), into: saveWalks, print: print) {
                        print("spotcheck verify: --save-walks: \(message)")
                        return 2
                    }
                }
            }
        }
        var report = RunReport(results: results, duration: outcome.report.duration, client: outcome.report.client, target: outcome.report.target)
        report.unseenKnownDefects = outcome.report.unseenKnownDefects
        report.expiredKnownDefects = outcome.report.expiredKnownDefects
        report.strictKnownDefects = outcome.report.strictKnownDefects
        for line in DriftReport(results: results, contracts: contracts).lines { print(line) }
        print(ConsoleReporter.summary(report, noun: "checks"))
        if let message = reports.write(report, suiteName: "spotcheck verify", folder: "contracts") {
            print("spotcheck verify: \(message)")
            return 2
        }
        let ciMessage = ci.write(environment: environment, print: annotate) { locator in
            // A check's result is at fault on its example in the contract.
            let checks = Dictionary(plan.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let results = report.ciResults(suite: "spotcheck verify", folder: LintPrinter.displayPath(contractsURL), locator: &locator) { result in
                checks[result.name].flatMap { ExamplePointer.find($0.exampleName, inFile: contractsURL.appendingPathComponent($0.file)) }
            }
            var ciReport = CIReport(command: "verify", start: started, stop: Date(), results: results)
            ciReport.facts = ["target: \(url.absoluteString)"] + (explorationSeed.map { ["exploration seed \($0)"] } ?? []) + (tokenCheck.map { [$0] } ?? [])
            return ciReport
        }
        if let ciMessage {
            print("spotcheck verify: \(ciMessage)")
            return 2
        }
        return report.exitCode
    }

    /// Writes each walk to its own file in `folder` (made when missing; an existing file is never overwritten: the next
    /// free number is taken); returns why it could not.
    static func save(_ walks: [WalkCase], into folder: String, print: (String) -> Void) -> String? {
        guard !walks.isEmpty else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return "cannot create the folder \(folder): \(error.localizedDescription)"
        }
        for walk in walks {
            var number = 1
            var path: String
            repeat {
                path = (folder as NSString).appendingPathComponent(walk.fileName(number: number))
                number += 1
            } while FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
            do {
                try SafeFileWrite.write(walk.encoded(), to: path)
            } catch {
                return "\(path) \(error.reason)"
            }
            print("saved the walk of \(walk.stepLines.count) step(s) to \(path); replay it with --replay-walk \(path)")
        }
        return nil
    }

    /// The longest `--time`: a year, far below where seconds in milliseconds overflow `Int`.
    static let maxSeconds: Double = 31_536_000

    /// `30s`, `2m`, `500ms` or plain seconds, at most `maxSeconds`; nil otherwise (NaN and infinity included).
    static func duration(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let value = Double(text.dropLast(suffix.count)), value > 0, value * scale <= maxSeconds else { return nil }
            return .milliseconds(Int(value * scale * 1000))
        }
        guard let value = Double(text), value > 0, value <= maxSeconds else { return nil }
        return .milliseconds(Int(value * 1000))
    }
}
