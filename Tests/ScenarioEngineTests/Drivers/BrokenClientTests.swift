import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// The engine can fail: each broken client makes the scenarios about its bug fail, naming the wrong behaviour.
@Suite struct BrokenClientTests {
    static func results(_ files: [String], driver: any ClientDriver, stepTimeoutMs: Int? = nil) async throws -> [String: ScenarioResult] {
        var scenarios = try files.map(EngineTestSupport.scenario).map(EngineTestSupport.relaxed)
        if let stepTimeoutMs { for i in scenarios.indices { scenarios[i].client.stepTimeoutMs = stepTimeoutMs } }
        let report = try await EngineTestSupport.run(scenarios, driver: driver)
        return Dictionary(uniqueKeysWithValues: report.results.map { ($0.file, $0) })
    }

    static func message(_ result: ScenarioResult?) -> String { result?.failure?.message ?? "(no failure)" }

    @Test func aClientMappingEveryErrorToGenericFailsOnlyWhereTheDeviceIsOffline() async throws {
        // Generic for a refused connect or a timeout is 003 T044's / 001 FR-012's reading; for an offline device no seed allows it.
        let r = try await Self.results(
            ["offline-step1-device.json", "fault-step1-refuse.json", "fault-step1-stall.json", "fault-step1-500.json"],
            driver: BrokenClients.MapsEveryErrorToGeneric())
        let offline = Self.message(r["offline-step1-device.json"])
        #expect(r["offline-step1-device.json"]?.status == .failed)
        #expect(offline.contains("alert for the reported cause: the networking layer reported NSURLErrorDomain -1009"), "\(offline)")
        for file in ["fault-step1-refuse.json", "fault-step1-stall.json", "fault-step1-500.json"] {
            #expect(r[file]?.status == .passed, "\(file): \(Self.message(r[file]))")
        }
        #expect(r["fault-step1-stall.json"]?.readings.contains { $0.contains("001 FR-012") } == true, "\(r["fault-step1-stall.json"]?.readings ?? [])")
    }

    @Test func aClientRetryingOnlyStep2FailsTheTryAgainScenarios() async throws {
        let r = try await Self.results(["fault-step2-503.json", "upload-403.json", "fault-step1-503.json"], driver: BrokenClients.retriesOnlyStep2)
        for file in ["fault-step2-503.json", "upload-403.json"] {
            let message = Self.message(r[file])
            #expect(r[file]?.status == .failed, "\(file) should fail")
            // fault-step2-503 first waits to prove nothing is sent on its own, so its Try Again is step 3.
            #expect(r[file]?.failure?.action == "retry")
            #expect(message.contains("call order: expected createAnnouncement → uploadPhoto, got uploadPhoto"), "\(message)")
            #expect(message.contains("re-runs the whole two-step flow from step 1"))
        }
        #expect(r["fault-step1-503.json"]?.status == .passed, "\(Self.message(r["fault-step1-503.json"]))")
    }

    @Test func aClientNavigatingAwayOnFailureFailsEveryFailureScenario() async throws {
        let r = try await Self.results(["fault-step1-502.json", "fault-step2-drop.json", "happy-path.json"], driver: BrokenClients.NavigatesAwayOnFailure())
        for file in ["fault-step1-502.json", "fault-step2-drop.json"] {
            #expect(r[file]?.status == .failed, "\(file) should fail")
            #expect(Self.message(r[file]).contains("screen: expected form, got animalDescription"), "\(Self.message(r[file]))")
        }
        #expect(r["happy-path.json"]?.status == .passed)
    }

    @Test func aClientClearingInputsOnCancelFailsTheCancelScenarios() async throws {
        let r = try await Self.results(["cancel-then-continue.json", "server-400-photo-not-an-image.json"], driver: BrokenClients.ClearsInputsOnCancel())
        for file in ["cancel-then-continue.json", "server-400-photo-not-an-image.json"] {
            let message = Self.message(r[file])
            #expect(r[file]?.status == .failed, "\(file) should fail")
            #expect(r[file]?.failure?.action == "cancel")
            #expect(message.contains("input phone (must stay intact): expected \"+48 123-456-789\", got \"\""), "\(message)")
            #expect(message.contains("input email (must stay intact)"))
        }
    }

    @Test func aClientIgnoringItsTimeoutFailsTheStallScenarioAsHung() async throws {
        let r = try await Self.results(["fault-step1-stall.json"], driver: BrokenClients.ignoresItsTimeout, stepTimeoutMs: 4000)
        let message = Self.message(r["fault-step1-stall.json"])
        #expect(r["fault-step1-stall.json"]?.status == .failed)
        #expect(message.contains("expected an answer within 4000 ms"), "\(message)")
        #expect(message.contains("the client hung although its request timeout is 2000 ms"))
        #expect(message.contains("[fault stall]"), "the journal excerpt shows the stalled request: \(message)")
    }

    @Test func aClientWithTheRightAlertKindButOtherWordsFails() async throws {
        struct RewordsAlerts: ClientDriver {
            var description: String { "broken: own alert texts" }
            func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
                Rewriting(inner: try await PetSpotClientDriver().open(context)) { _, observation in
                    var o = observation
                    if let alert = o.alert { o.alert = ObservedAlert(kind: alert.kind, message: "Oops!") }
                    return o
                }
            }
        }
        let r = try await Self.results(["fault-step2-500.json"], driver: RewordsAlerts())
        #expect(Self.message(r["fault-step2-500.json"]).contains("alert message: expected \"Something went wrong. Please try again later.\", got \"Oops!\""))
    }
}
