import ArgumentParser
import MockCommands
import ContractKit
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
            Exit 0 when every answer matches, 1 on a mismatch, 2 on bad usage or bad contracts.
            """
    )

    @Option(help: "The server to verify, e.g. http://localhost:3000.")
    var target: String?

    @Option(name: .customLong("contracts"), help: "The contracts folder (default: contracts/ here, else the bundled contracts).")
    var contractsDirectory: String?

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

    @Flag(help: "Fail when a known defect listed in known-defects.json was not seen (the server now answers as documented).")
    var strict = false

    @OptionGroup var reports: ReportFileOptions

    func run() async throws {
        let code = await execute(print: ConsoleOutput.shared.write)
        if code != 0 { throw ExitCode(code) }
    }

    /// Runs the command, writing human output through `print`; returns the exit code.
    func execute(print: @escaping @Sendable (String) -> Void) async -> Int32 {
        guard let (contracts, contractsURL) = InputFolder.contracts(contractsDirectory, print: print) else { return 2 }
        let plan = VerificationPlanner.plan(for: contracts, adminChecks: adminToken != nil).filter { check in
            !skipped.contains { check.name.localizedCaseInsensitiveContains($0) }
        }
        if dryRun {
            print(VerificationPlanner.describe(plan))
            print("\(plan.count) checks; nothing was sent")
            return 0
        }
        guard let target, let url = URL(string: target), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            print("spotcheck verify: --target expects an http(s) URL such as http://localhost:3000; got \"\(target ?? "")\"")
            return 2
        }
        guard timeout > 0 else {
            print("spotcheck verify: --timeout expects a positive number of seconds; got \(timeout)")
            return 2
        }
        print("verifying \(url.absoluteString) against \(plan.count) documented answers from \(LintPrinter.displayPath(contractsURL))")
        var verifier = ProviderVerifier(contracts: contracts, target: url, timeout: timeout)
        verifier.ignoreMessages = ignoreMessages
        verifier.adminToken = adminToken
        verifier.strict = strict
        let outcome = await verifier.verify(plan)
        for result in outcome.report.results { print(ConsoleReporter.line(for: result)) }
        print(ConsoleReporter.summary(outcome.report, noun: "checks"))
        print("created \(outcome.createdAnnouncements.count) announcement(s) on the server: "
            + (outcome.createdAnnouncements.isEmpty ? "none" : outcome.createdAnnouncements.joined(separator: ", ")))
        if let message = reports.write(outcome.report, suiteName: "spotcheck verify", folder: "contracts") {
            print("spotcheck verify: \(message)")
            return 2
        }
        return outcome.report.exitCode
    }
}
