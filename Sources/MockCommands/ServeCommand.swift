import ArgumentParser
import ContractKit
import ContractModel
import Foundation
import Logging
import MockBackend

/// `spotcheck serve`: runs the stateful mock backend of the contracts until interrupted.
public struct ServeCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the stateful mock backend the contracts describe (with fault injection and a request journal).",
        discussion: """
            Prints the bound URL on the first line ("Listening on http://127.0.0.1:PORT"), then serves until Ctrl-C.
            The admin API lives under /__spotcheck/ (journal, events, reset, health, faults, state), and so does the dashboard
            (printed as "Dashboard on ..."; use --admin-port so it stays reachable while the mock is offline).
            --data-dir DIR keeps the records, their secrets and files across restarts (fsynced before each answer that changed them).
            Exit 2 when the contracts, fixtures or fault rules cannot be used.
            Debug builds check every answer against its contract (header x-spotcheck-contract-violation) but parse big
            multipart bodies far more slowly; use `swift run -c release spotcheck serve` for big photo uploads.
            """
    )

    @Option(help: "Seed for generated ids and secrets, request ids and probabilistic faults.")
    var seed: UInt64?

    @Option(help: "A fixtures file of records to preload ({\"<collection>\": [...]}), e.g. contracts/fixtures/pets.json.")
    var fixtures: String?

    @Option(name: .customLong("contracts"), help: "The contracts folder (default: contracts/ in the working directory, else the one in this checkout), or OpenAPI documents (YAML or JSON, 3.0 or 3.1; several: repeat --contracts or separate with commas; docs/openapi.md).")
    var contractsList: [String] = []

    /// Every `--contracts` as the one comma-separated list `InputFolder` reads.
    var contracts: String? { contractsList.isEmpty ? nil : contractsList.joined(separator: ",") }

    @Option(help: ArgumentHelp("For OpenAPI documents: the path every operation's path is under, instead of the one servers gives (e.g. /api/v1).", valueName: "path"))
    var basePath: String?

    @Option(help: "Keep at most this many records created through the API, dropping the oldest first (fixtures stay); 0 keeps all.")
    var storeLimit: Int = ServeCommand.defaultStoreLimit

    /// Enough for any test run or day of development; `--store-max-bytes` bounds the memory whatever the records' size.
    static let defaultStoreLimit = 20_000

    @Option(help: ArgumentHelp("Keep the records and files within this much memory (e.g. 64M, 1G), dropping the oldest created first (fixtures stay, the newest create always stays); 0 bounds nothing.", valueName: "bytes"))
    var storeMaxBytes = ByteCount(bytes: ContractMock.Options.defaultStoreMaxBytes)

    /// The real backend's port, so an app configured for it works unchanged against the mock.
    static let defaultPort = 3000
    @Option(help: ArgumentHelp("Keep the records, their secrets and files in this directory across restarts (created if missing; a directory of other files is refused). Without it the mock keeps everything in memory.", valueName: "dir"))
    var dataDir: String?

    @OptionGroup var listen: ListenOptions

    @Flag(help: "Reproduce the real server's known defects listed in contracts/known-defects.json (e.g. 500 for malformed JSON).")
    var withKnownDefects = false

    @Option(name: .customLong("drift"), help: ArgumentHelp(
        "Depart from the contracts on purpose, to see what `spotcheck verify` and other tools catch (repeatable): "
            + ContractDrift.allCases.map(\.rawValue).joined(separator: ", ") + ".", valueName: "name"))
    var drifts: [String] = []

    @OptionGroup var faults: FaultOptions

    @Option(name: .customLong("secret"), help: ArgumentHelp(
        "Sign with this key instead of one of its own, as NAME=VALUE: token=VALUE for jwt-hs256 tokens (so a client can check them).",
        valueName: "name=value"))
    var secrets: [String] = []

    @OptionGroup var traffic: TrafficCheckOptions

    @Flag(help: "Print how long each start-up phase took (contracts, backend and listening) as one JSON line on standard error.")
    var timings = false

    public func validate() throws {
        if listen.adminToken == nil && !((try? ServerConfiguration(host: listen.host).resolveLoopback()) ?? false) {
            throw ValidationError("--host \(listen.host) is beyond loopback: give --admin-token (the DELETE credential and the admin API token); the real backend's default token is only used on loopback")
        }
        for drift in drifts where ContractDrift(rawValue: drift) == nil {
            throw ValidationError("--drift expects one of \(ContractDrift.allCases.map(\.rawValue).joined(separator: ", ")); got \"\(drift)\"")
        }
        guard storeLimit >= 0 else { throw ValidationError("--store-limit must be 0 (keep all) or positive, got \(storeLimit)") }
    }

    public init() {}

    public func run() async throws {
        let mock: ContractMock
        var clock = StartTimings(enabled: timings)
        switch await start(timings: &clock) {
        case .success(let started): mock = started
        case .failure(let failure):
            try failure.outcome.finish()
            return
        }
        // Before the banner: a script may send TERM as soon as it reads it.
        let interrupt = await InterruptSignal.arm()
        // Written unbuffered: scripts wait for this line to learn the port.
        FileHandle.standardOutput.write(Data(Self.banner(for: mock).utf8))
        clock.print()
        await StopSignal.wait(mock.server.shutdownRequest, interrupt)
        try await mock.shutdown()
        let status = traffic.finish(mock.server, name: "spotcheck serve")
        if status != 0 { throw ExitCode(status) }
    }

    /// Loads the contracts, fault rules and fixtures and starts the mock; a problem comes back as the exit-2 outcome to print.
    func start() async -> Result<ContractMock, CommandFailure> {
        var clock = StartTimings(enabled: false)
        return await start(timings: &clock)
    }

    /// `start()`, marking the contract loading and the backend start in `timings`.
    func start(timings clock: inout StartTimings) async -> Result<ContractMock, CommandFailure> {
        var contractSet: ContractSet
        do {
            // Unchanged contracts are not linted again at every start (issue 23); `SPOTCHECK_CACHE_DIR=off` always lints.
            contractSet = try InputFolder.load(contracts, basePath: basePath, cache: ContractLintCache.standard())
            // Only what it is told: the server under test's own key variable is never read from serve's environment.
            contractSet.deploymentSecrets = try DeploymentSecrets.resolve(options: secrets, contracts: contractSet, environment: [:])
        } catch {
            return .failure(CommandFailure(outcome: CommandOutcome(output: "spotcheck serve: \(error)\n", exitCode: 2)))
        }
        InputFolder.warn(about: contractSet, command: "spotcheck serve")
        clock.mark("contractsMs")
        let rules: [FaultRule]
        do {
            rules = try faults.rules(seed: seed, knownContracts: contractSet.contracts.map(\.id))
        } catch {
            return .failure(CommandFailure(outcome: CommandOutcome(output: "spotcheck serve: \(error)\n", exitCode: 2)))
        }
        var options = ContractMock.Options(
            contracts: contractSet, host: listen.host, port: listen.port ?? Self.defaultPort, seed: seed, fixtures: fixtures.map { URL(fileURLWithPath: $0) },
            faults: rules, journalLimit: listen.journalLimit, adminToken: listen.adminToken, adminPort: listen.adminPort, quiet: listen.quiet)
        options.storeLimit = storeLimit == 0 ? nil : storeLimit
        options.storeMaxBytes = storeMaxBytes.bytes == 0 ? nil : storeMaxBytes.bytes
        options.allowedHosts = listen.allowHost
        options.allowBrowserAdmin = listen.allowBrowserAdmin
        options.keepSecrets = traffic.keepSecrets
        options.reproduceKnownDefects = withKnownDefects
        options.drift = Set(drifts.compactMap(ContractDrift.init(rawValue:)))
        do {
            options.exchangeObserver = try traffic.monitor(contracts: contractSet, source: "mock", defaultScope: .requests)
        } catch {
            return .failure(CommandFailure(outcome: CommandOutcome(output: "spotcheck serve: \(error)\n", exitCode: 2)))
        }
        options.dataDirectory = dataDir.map { URL(fileURLWithPath: $0) }
        clock.mark("optionsMs")
        do {
            let started = try await ContractMock.start(options)
            clock.mark("backendAndListenMs")
            // What opening the data directory repaired (a torn last record dropped) is said, never done silently.
            for notice in started.backend.store.dataDirectoryNotices {
                FileHandle.standardError.write(Data("spotcheck serve: data directory: \(notice)\n".utf8))
            }
            return .success(started)
        } catch {
            return .failure(CommandFailure(outcome: CommandOutcome(output: "spotcheck serve: \(error)\n", exitCode: 2)))
        }
    }

    /// The lines printed once listening: the bound URL first, then the admin URL if any.
    static func banner(for mock: ContractMock) -> String {
        var banner = "Listening on \(mock.baseURL.absoluteString)\n"
        if let admin = mock.adminBaseURL { banner += "Admin API on \(admin.absoluteString)/__spotcheck/\n" }
        banner += DashboardBanner.line(base: mock.baseURL, admin: mock.adminBaseURL)
        return banner
    }
}
