import ContractKit
@testable import Exploration
import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// A slow machine is never reported as a client bug (issue 28 "Confirmed, never environmental").
@Suite("explore: a slow machine is not a client bug", .serialized)
struct SlowMachineTests {
    /// A one-submit scenario with a 1 s request timeout, and `faults`.
    static func document(faults: [PlannedFault] = []) throws -> JSONValue {
        let runner = try ExplorationSupport.runner(PetSpotClientDriver())
        var doc = runner.model(Session(actions: [.submit], faults: faults), name: "one submit", summary: "").document.objectValue ?? [:]
        doc["client"] = ["timeoutMs": 1000]
        return .object(doc)
    }

    @Test("a scenario that fails only by an unplanned client time-out passes with the deadline raised and is reported as a slow machine")
    func scenarioRunRetried() async throws {
        let result = try await SessionRunner.judge(try Self.document(), driver: ExplorationClientDoubles.TooSlowForShortTimeouts(),
                                                   contracts: try ExplorationSupport.contracts(), seed: 1)
        #expect(result.status == .skipped)
        #expect(result.slowMachine)
        #expect(result.unplannedTimeouts == [1])
        #expect(result.skipReason?.hasPrefix("the machine was too slow") == true, "\(result.skipReason ?? "")")
        #expect(ConsoleReporter.line(for: result).contains("SKIP"))
        let summary = ConsoleReporter.summary(RunReport(results: [result], duration: .seconds(1), client: "c", target: "t"))
        #expect(summary.contains("the machine was too slow: 1 scenarios failed only by an unplanned client time-out"), "\(summary)")
    }

    @Test("a time-out in a step with a planned delay is the scenario's own: no second run, the failure stands")
    func plannedTimingFaultNotRetried() async throws {
        let doc = try Self.document(faults: [PlannedFault(.create, of: SessionForm.default.calls, call: 1, kind: .delay(ms: 10))])
        let result = try await SessionRunner.judge(doc, driver: ExplorationClientDoubles.TooSlowForShortTimeouts(),
                                                   contracts: try ExplorationSupport.contracts(), seed: 1)
        #expect(result.status == .failed)
        #expect(!result.slowMachine)
    }

    @Test("a time-out in a step whose connection was dropped or reset is the scenario's own: no second run, the failure stands",
          arguments: [PlannedFault.Kind.drop, .reset])
    func droppedConnectionNotRetried(_ kind: PlannedFault.Kind) async throws {
        // libcurl sends a dropped reused connection's request again and waits out its timeout: the drop's own outcome.
        let doc = try Self.document(faults: [PlannedFault(.create, of: SessionForm.default.calls, call: 1, kind: kind)])
        let result = try await SessionRunner.judge(doc, driver: ExplorationClientDoubles.TooSlowForShortTimeouts(),
                                                   contracts: try ExplorationSupport.contracts(), seed: 1)
        #expect(!result.slowMachine, "\(result.skipReason ?? "")")
        #expect(result.status != .skipped)
    }

    @Test("a client too slow for the raised deadline too is still a failure")
    func stillFailing() async throws {
        let result = try await SessionRunner.judge(try Self.document(), driver: ExplorationClientDoubles.TooSlowForShortTimeouts(slowBelowMs: 60_000),
                                                   contracts: try ExplorationSupport.contracts(), seed: 1)
        #expect(result.status == .failed)
        #expect(result.unplannedTimeouts == [1])
    }

    @Test("exploring a correct client beside two CPU burners finds no counterexample and says how many sessions it retried")
    func besideCPUBurners() async throws {
        var burners: [Process] = []
        defer {
            // SIGKILL: a busy `sh` loop may not act on SIGTERM, and the burners must never outlive the test.
            for p in burners {
                kill(p.processIdentifier, SIGKILL)
                p.waitUntilExit()
            }
        }
        for _ in 0..<2 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", "while :; do :; done"]
            try p.run()
            burners.append(p)
        }
        let report = try await ExplorationSupport.explore(PetSpotClientDriver(), seed: 1, budget: .runs(80), jobs: 2)
        #expect(burners.allSatisfy { $0.isRunning }, "the burners ran for the whole exploration")
        #expect(report.groups.isEmpty, "\(report.text)")
        #expect(report.exitCode == 0)
        #expect(report.text.contains("retried \(report.retriedSessions) session"))
        #expect(report.slowMachineSessions <= report.retriedSessions)
    }
}
