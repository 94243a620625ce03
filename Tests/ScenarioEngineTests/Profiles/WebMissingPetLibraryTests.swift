import ContractKit
import Foundation
import Testing

@testable import ClientDoubles
@testable import ScenarioEngine

/// The `web-missing-pet` library judged by its profile: a web client that shows toasts and sends again with Continue
/// passes, and one whose failed upload still ends on the summary fails, citing 043.
@Suite struct WebMissingPetLibraryTests {
    static func run(_ driver: any ClientDriver) async throws -> [String: ScenarioResult] {
        try await EngineTestSupport.runLibrary(of: try WebMissingPetProfileTests.profile(), with: driver)
    }

    @Test func aClientFollowingTheWebSpecPassesTheWebLibrary() async throws {
        let results = try await Self.run(WebFlowClients.FollowsTheWebSpec())
        #expect(results.count == 7)
        for (file, result) in results { #expect(result.status == .passed, "\(file): \(result.failure?.message ?? "")") }
    }

    @Test func everyScenarioNamesTheWebProfileAndLintsClean() throws {
        let profile = try WebMissingPetProfileTests.profile()
        let library = try ScenarioLibrary.load(from: profile.libraryDirectory)
        for scenario in library.scenarios {
            #expect(scenario.profile == "web-missing-pet" && scenario.flow == "reportMissing", "\(scenario.displayPath)")
            let problems = ProfileLinter.problems(in: scenario, profile: profile)
            #expect(problems.isEmpty, "\(problems.map(\.description))")
        }
    }

    /// Every way the upload fails (a server error, an auth refusal, a body too large, a dropped connection) must keep
    /// the user off the summary; a failed create the double shows as the spec says, so that scenario passes.
    @Test func everyFailedUploadThatEndsOnTheSummaryFailsCiting043() async throws {
        let results = try await Self.run(WebFlowClients.EndsOnTheSummaryAfterAFailure())
        let uploads = results.keys.filter { $0.hasPrefix("upload-") }.sorted()
        #expect(uploads.count == 6)
        for file in uploads {
            let result = try #require(results[file])
            let message = result.failure?.message ?? ""
            #expect(result.status == .failed, "\(file) passed")
            #expect(message.contains("outcome: expected failure") && message.contains("043 FR-006"), "\(file): \(message)")
        }
        #expect(results["create-500-continue-again.json"]?.status == .passed, "\(results["create-500-continue-again.json"]?.failure?.message ?? "")")
    }

    @Test func aToastWithTryAgainFailsTheNoButtonsRule() async throws {
        let results = try await Self.run(WebFlowClients.ShowsTryAgain())
        let result = try #require(results["upload-500-continue-sends-again.json"])
        let message = result.failure?.message ?? ""
        #expect(result.status == .failed)
        #expect(message.contains("alert buttons") && message.contains("043 FR-011"), "\(message)")
    }

    @Test func theSeedsWouldFailTheSameClient() async throws {
        let library = try ScenarioLibrary.load(from: try WebMissingPetProfileTests.profile().libraryDirectory)
        let report = try await EngineTestSupport.run(library.scenarios, driver: WebFlowClients.FollowsTheWebSpec())
        let messages = report.results.compactMap { $0.failure?.message }
        #expect(messages.contains { $0.contains("alert message: expected \"\(SeedAlertPolicy.Alert.generic.text)\"") }, "\(messages)")
    }

    @Test func aFailedUploadThatEndsOnTheSummaryFailsCiting043() async throws {
        let results = try await Self.run(WebFlowClients.EndsOnTheSummaryAfterAFailure())
        let upload = try #require(results["upload-500-stays-on-form.json"])
        let message = upload.failure?.message ?? ""
        #expect(upload.status == .failed)
        #expect(message.contains("outcome: expected failure"), "\(message)")
        #expect(message.contains("043 FR-006 and FR-010"), "\(message)")
    }
}
