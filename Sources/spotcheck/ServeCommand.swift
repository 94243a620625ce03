import ArgumentParser
import ContractKit
import Foundation
import Logging
import MockBackend

/// `spotcheck serve`: runs the stateful PetSpot mock backend until interrupted.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the stateful PetSpot mock backend (with fault injection and a request journal).",
        discussion: """
            Prints the bound URL on the first line ("Listening on http://127.0.0.1:PORT"), then serves until Ctrl-C.
            The admin API lives under /__spotcheck/ (journal, reset, health, faults).
            Exit 2 when the contracts, fixtures or fault rules cannot be used.
            Debug builds check every answer against its contract (header x-spotcheck-contract-violation) but parse big
            multipart bodies far more slowly; use `swift run -c release spotcheck serve` for big photo uploads.
            """
    )

    @Option(help: "Seed for ids, management passwords, request ids and probabilistic faults.")
    var seed: UInt64?

    @Option(help: "A fixtures file of announcements to preload, e.g. contracts/fixtures/pets.json.")
    var fixtures: String?

    @Option(help: "The contracts folder (default: contracts/ in the working directory, else the one in this checkout).")
    var contracts: String?

    @Option(help: "Keep at most this many announcements created through the API, dropping the oldest first (fixtures stay); 0 keeps all.")
    var storeLimit: Int = ServeCommand.defaultStoreLimit

    /// Enough for any test run or day of development, and a bound on memory (under 1 KiB per announcement).
    static let defaultStoreLimit = 20_000

    @OptionGroup var listen: ListenOptions

    @OptionGroup var faults: FaultOptions

    @OptionGroup var traffic: TrafficCheckOptions

    func validate() throws {
        guard storeLimit >= 0 else { throw ValidationError("--store-limit must be 0 (keep all) or positive, got \(storeLimit)") }
    }

    func run() async throws {
        let mock: PetSpotMockBackend
        switch await start() {
        case .success(let started): mock = started
        case .failure(let failure):
            try failure.outcome.finish()
            return
        }
        // Written unbuffered: scripts wait for this line to learn the port.
        FileHandle.standardOutput.write(Data(Self.banner(for: mock).utf8))
        await StopSignal.wait(mock.server.shutdownRequest)
        try await mock.shutdown()
        let status = traffic.finish(mock.server, name: "spotcheck serve")
        if status != 0 { throw ExitCode(status) }
    }

    /// Loads the contracts, fault rules and fixtures and starts the mock; a problem comes back as the exit-2 outcome to print.
    func start() async -> Result<PetSpotMockBackend, CommandFailure> {
        let directory = contractsDirectory
        let contractSet: ContractSet
        do {
            contractSet = try ContractSet.load(from: directory)
        } catch {
            return .failure(CommandFailure(outcome: CommandOutcome(output: "spotcheck serve: \(error)\n", exitCode: 2)))
        }
        let rules: [FaultRule]
        do {
            rules = try faults.rules(seed: seed)
        } catch {
            return .failure(CommandFailure(outcome: CommandOutcome(output: "spotcheck serve: \(error)\n", exitCode: 2)))
        }
        var options = PetSpotMockBackend.Options(
            contracts: contractSet, host: listen.host, port: listen.port, seed: seed, fixtures: fixtures.map { URL(fileURLWithPath: $0) },
            faults: rules, journalLimit: listen.journalLimit, adminToken: listen.adminToken, adminPort: listen.adminPort, quiet: listen.quiet)
        options.storeLimit = storeLimit == 0 ? nil : storeLimit
        do {
            options.exchangeObserver = try traffic.monitor(contracts: contractSet, source: "mock")
        } catch {
            return .failure(CommandFailure(outcome: CommandOutcome(output: "spotcheck serve: \(error)\n", exitCode: 2)))
        }
        do {
            return .success(try await PetSpotMockBackend.start(options))
        } catch {
            return .failure(CommandFailure(outcome: CommandOutcome(output: "spotcheck serve: \(error)\n", exitCode: 2)))
        }
    }

    /// The lines printed once listening: the bound URL first, then the admin URL if any.
    static func banner(for mock: PetSpotMockBackend) -> String {
        var banner = "Listening on \(mock.baseURL.absoluteString)\n"
        if let admin = mock.adminBaseURL { banner += "Admin API on \(admin.absoluteString)/__spotcheck/\n" }
        return banner
    }

    private var contractsDirectory: URL {
        InputFolder.resolve(contracts, local: "contracts", bundled: ContractSet.bundledDirectory)
    }
}
