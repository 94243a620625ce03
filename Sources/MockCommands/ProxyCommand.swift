import ArgumentParser
import ContractKit
import ContractModel
import Foundation
import MockBackend

/// `spotcheck proxy`: forwards to a real server with the fault layer and journal in front of it.
public struct ProxyCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Forward to a real PetSpot server, injecting faults and journaling every request.",
        discussion: """
            Prints "Proxying http://127.0.0.1:PORT -> TARGET" on the first line, then the admin API and dashboard URL, and
            serves until Ctrl-C. Contract ids in the journal and in fault selectors come from the contracts folder.
            The admin API (journal, health, faults, violations, coverage, shutdown) and the dashboard live under /__spotcheck/
            on the admin port only (--admin-port, default 0: a free one), never on the forwarded port, whose pages come from
            the target; the forwarded port answers /__spotcheck/ with a 404 saying where the dashboard is.
            Every exchange is validated against the contracts (see docs/proxy.md); the run's report is written when the
            proxy stops (Ctrl-C, TERM or POST /__spotcheck/shutdown). Exit 2 on a bad target or bad fault rules,
            1 with --fail-on-violation when any exchange violated its contract.
            """
    )

    @Option(help: ArgumentHelp("The server to forward to, e.g. http://localhost:3000 (plain HTTP).", valueName: "url"))
    var target: String

    @Option(help: "Seed for probabilistic faults.")
    var seed: UInt64?

    @Option(help: "Seconds to wait for the target's answer before answering 504.")
    var timeout: Double = 60

    @Option(name: .customLong("contracts"), help: "The contracts folder (default: contracts/ in the working directory, else the one in this checkout), or OpenAPI documents (YAML or JSON, 3.0 or 3.1; several: repeat --contracts or separate with commas; docs/openapi.md).")
    var contractsList: [String] = []

    /// Every `--contracts` as the one comma-separated list `InputFolder` reads.
    var contracts: String? { contractsList.isEmpty ? nil : contractsList.joined(separator: ",") }

    @Option(help: ArgumentHelp("For OpenAPI documents: the path every operation's path is under, instead of the one servers gives (e.g. /api/v1).", valueName: "path"))
    var basePath: String?

    @OptionGroup var listen: ListenOptions

    @OptionGroup var faults: FaultOptions

    @OptionGroup var traffic: TrafficCheckOptions

    public func validate() throws {
        // Bounded so seconds → milliseconds → NIO's nanoseconds cannot overflow.
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout expects seconds greater than 0 and at most 86400 (a day), got \(timeout)") }
    }

    public init() {}

    public func run() async throws {
        switch await start() {
        case .success(let proxy):
            // Before the banner: a script may send TERM as soon as it reads it.
            let interrupt = await InterruptSignal.arm()
            FileHandle.standardOutput.write(Data(Self.banner(for: proxy, target: target).utf8))
            await StopSignal.wait(proxy.server.shutdownRequest, interrupt)
            let status = try await stop(proxy)
            if status != 0 { throw ExitCode(status) }
        case .failure(let failure):
            try failure.outcome.finish()
        }
    }

    /// Loads contracts and rules and starts the proxy; a problem comes back as the exit-2 outcome to print.
    func start() async -> Result<RunningFaultProxy, CommandFailure> {
        func failure(_ message: String) -> Result<RunningFaultProxy, CommandFailure> {
            .failure(CommandFailure(outcome: CommandOutcome(output: "spotcheck proxy: \(message)\n", exitCode: 2)))
        }
        guard let url = URL(string: target), url.host != nil else {
            return failure("--target \(target) is not a URL such as http://localhost:3000")
        }
        let contractSet: ContractSet
        do {
            contractSet = try InputFolder.load(contracts, basePath: basePath)
        } catch {
            return failure("\(error)")
        }
        InputFolder.warn(about: contractSet, command: "spotcheck proxy")
        let rules: [FaultRule]
        do {
            rules = try faults.rules(seed: seed, knownContracts: contractSet.contracts.map(\.id))
        } catch {
            return failure(error.description)
        }
        let monitor: ExchangeMonitor
        do {
            // The HAR names the real server: what the app reaches through the proxy.
            monitor = try traffic.monitor(contracts: contractSet, source: "real", defaultScope: .all,
                                          harOrigin: target.hasSuffix("/") ? String(target.dropLast()) : target)
        } catch {
            return failure("\(error)")
        }
        do {
            let proxy = try await FaultProxy.start(
                target: url, host: listen.host, port: listen.port ?? 0, faults: rules, seed: seed, journalLimit: listen.journalLimit,
                contracts: contractSet, adminPort: listen.adminPort ?? 0, adminToken: listen.adminToken, quiet: listen.quiet,
                timeout: .milliseconds(Int64(timeout * 1000)), exchangeObserver: monitor, allowedHosts: listen.allowHost,
                allowBrowserAdmin: listen.allowBrowserAdmin, keepSecrets: traffic.keepSecrets)
            return .success(proxy)
        } catch {
            return failure("\(error)")
        }
    }

    /// The lines printed once listening: the proxy URL and target first, then the admin API and dashboard URL.
    static func banner(for proxy: RunningFaultProxy, target: String) -> String {
        var banner = "Proxying \(proxy.baseURL.absoluteString) -> \(target)\n"
        banner += "Admin API on \(proxy.adminBaseURL.absoluteString)/__spotcheck/\n"
        banner += DashboardBanner.line(base: proxy.baseURL, admin: proxy.adminBaseURL)
        let rules = proxy.faults.rules
        if !rules.isEmpty { banner += "Fault rules: \(rules.map { $0.name ?? $0.fault.kind }.joined(separator: "; "))\n" }
        return banner
    }

}
