import ContractKit
import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// An offline device is the one cause every seed agrees on: the no-connection alert, strictly, through every driver.
@Suite struct DeviceOfflineTests {
    @Test func theReferenceClientPassesTheOfflineScenarios() async throws {
        let files = ["offline-step1-device.json", "offline-step2-device.json", "list-offline.json"]
        let r = try await BrokenClientTests.results(files, driver: PetSpotClientDriver())
        for file in files { #expect(r[file]?.status == .passed, "\(file): \(BrokenClientTests.message(r[file]))") }
    }

    @Test func aGenericAlertWhileOfflineFailsNamingMinus1009AndTheSeeds() async throws {
        let r = try await BrokenClientTests.results(["offline-step1-device.json", "offline-step2-device.json"], driver: BrokenClients.MapsEveryErrorToGeneric())
        for file in ["offline-step1-device.json", "offline-step2-device.json"] {
            let message = BrokenClientTests.message(r[file])
            #expect(r[file]?.status == .failed, "\(file)")
            #expect(message.contains("NSURLErrorDomain -1009 (not connected to the internet)"), "\(file): \(message)")
            #expect(message.contains("001 FR-011, 001 User Story 4 scenario 1, 003 T039, 003 T044"), "\(message)")
            #expect(message.contains("the seeds require the no-connection alert \"No connection. Please check your network and try again.\""), "\(message)")
            #expect(!message.contains("expected \"Something went wrong"), "the expected text is the required alert's: \(message)")
        }
    }

    @Test func withoutACauseTheOfflineCheckStaysStrict() async throws {
        struct GenericWithoutCause: ClientDriver {
            var description: String { "generic, no cause" }
            func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
                Rewriting(inner: try await PetSpotClientDriver().open(context)) { _, observation in
                    var o = observation
                    o.cause = nil
                    if o.alert != nil { o.alert = ObservedAlert(kind: "generic", message: AlertExpectation.standardMessages["generic"] ?? "") }
                    return o
                }
            }
        }
        let r = try await BrokenClientTests.results(["offline-step1-device.json"], driver: GenericWithoutCause())
        let message = BrokenClientTests.message(r["offline-step1-device.json"])
        #expect(message.contains("-1009") && message.contains("001 FR-011"), "\(message)")
    }

    @Test func thePolicyIsStrictOnlyWhereAllSeedsAgree() {
        func allowed(_ code: Int) -> Set<SeedAlertPolicy.Alert> {
            SeedAlertPolicy.ruling(for: ObservedCause(kind: .urlError, code: code))?.allowed ?? []
        }
        #expect(allowed(-1009) == [.noConnection])
        for code in [-1001, -1004, -1005, -1011, -1003, -1] { #expect(allowed(code) == [.noConnection, .generic], "\(code)") }
        #expect(allowed(-1200) == [.generic])
        #expect(SeedAlertPolicy.ruling(for: ObservedCause(kind: .httpStatus, status: 503))?.allowed == [.generic])
        #expect(SeedAlertPolicy.ruling(for: ObservedCause(kind: .decoding))?.allowed == [.generic])
        #expect(SeedAlertPolicy.ruling(for: ObservedCause(kind: .transport, reason: "offline"))?.allowed == [.noConnection])
        #expect(SeedAlertPolicy.ruling(for: ObservedCause(kind: .urlError, domain: "kCFErrorDomainCFNetwork", code: 2)) == nil)
        let linux = SeedAlertPolicy.ruling(for: ObservedCause(kind: .urlError, code: -1011))
        #expect(linux?.platformNote?.contains("an Apple device reports -1005") == true)
        for cause in SeedAlertPolicy.Cause.allCases {
            for reading in SeedAlertPolicy.readings(for: cause) { #expect(!reading.seedLines.isEmpty, "\(cause) \(reading.name)") }
        }
    }

    @Test func aServerErrorShownAsNoConnectionSaysTheMappingChoseWrongNotThatAWrapperHidIt() {
        let ruling = SeedAlertPolicy.ruling(for: ObservedCause(kind: .httpStatus, status: 500))
        guard let ruling, case .contradicted(let required, let text) = SeedAlertPolicy.judge(shown: "noConnection", for: ruling) else {
            Issue.record("a 500 shown as no connection must be contradicted")
            return
        }
        #expect(required == .generic)
        #expect(!text.contains("wrapper"), "\(text)")
        #expect(text.contains("\"Something went wrong. Please try again later.\""), "\(text)")
    }

    @Test func theExternalClientGoesOfflineToo() async throws {
        let binary = try LibraryRunTests.builtProduct("spotcheck-client")
        let files = ["offline-step1-device.json", "offline-step2-device.json"]
        let good = try await BrokenClientTests.results(files, driver: ProcessDriver(command: binary.path))
        for file in files { #expect(good[file]?.status == .passed, "\(file): \(BrokenClientTests.message(good[file]))") }
    }

    @Test func spotcheckClientWithItsAlertsForcedToGenericFailsWhileOffline() async throws {
        // The real external client goes offline and reports the -1009 it saw; only its alert is rewritten to generic on the way out.
        let binary = try LibraryRunTests.builtProduct("spotcheck-client")
        let rewrite = #"s/"kind":"noConnection","message":"No connection. Please check your network and try again."/"kind":"generic","message":"Something went wrong. Please try again later."/"#
        let command = "'\(binary.path)' | sed -u '\(rewrite)'"
        let r = try await BrokenClientTests.results(["offline-step1-device.json"], driver: ProcessDriver(command: command))
        let message = BrokenClientTests.message(r["offline-step1-device.json"])
        #expect(r["offline-step1-device.json"]?.status == .failed)
        #expect(message.contains("reported NSURLErrorDomain -1009 (not connected to the internet)"), "\(message)")
        #expect(message.contains("001 FR-011, 001 User Story 4 scenario 1, 003 T039, 003 T044"), "\(message)")
    }

    @Test func anExternalClientShowingGenericWhileOfflineFails() async throws {
        // A client in the protocol: takes the device offline, then shows the generic alert with the -1009 it saw.
        let script = #"""
            id=0
            while read line; do
              id=$((id + 1))
              case "$line" in
                *'"start"'*) echo "{\"id\":$id,\"outcome\":\"ready\"}" ;;
                *'"deviceOffline"'*|*'"deviceOnline"'*) echo "{\"id\":$id,\"outcome\":\"done\"}" ;;
                *'"quit"'*) exit 0 ;;
                *) echo "{\"id\":$id,\"outcome\":\"failure\",\"screen\":\"form\",\"alert\":{\"kind\":\"generic\",\"message\":\"Something went wrong. Please try again later.\"},\"cause\":{\"kind\":\"urlError\",\"code\":-1009}}" ;;
              esac
            done
            """#
        let dir = try EngineTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("client.sh")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let r = try await BrokenClientTests.results(["offline-step1-device.json"], driver: ProcessDriver(command: "/bin/sh \(file.path)"))
        let message = BrokenClientTests.message(r["offline-step1-device.json"])
        #expect(r["offline-step1-device.json"]?.status == .failed)
        #expect(message.contains("-1009") && message.contains("001 FR-011, 001 User Story 4 scenario 1, 003 T039, 003 T044"), "\(message)")
    }
}
