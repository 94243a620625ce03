import ContractKit
import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// The `ios-found-pet` library judged by its profile (069 and KAN-34): a found-flow double that follows the profile
/// passes every scenario, and a double breaking one rule fails the scenario of that rule, citing the rule's source.
@Suite struct FoundPetLibraryTests {
    static func run(_ driver: any ClientDriver) async throws -> [String: ScenarioResult] {
        try await EngineTestSupport.runLibrary(of: try FoundPetProfileTests.profile(), with: driver)
    }

    @Test func everyScenarioNamesTheFoundProfileAndLintsClean() throws {
        let profile = try FoundPetProfileTests.profile()
        let library = try ScenarioLibrary.load(from: profile.libraryDirectory)
        #expect(library.scenarios.count >= 8)
        for scenario in library.scenarios {
            #expect(scenario.profile == "ios-found-pet" && scenario.flow == "reportFound", "\(scenario.displayPath)")
            let problems = ProfileLinter.problems(in: scenario, profile: profile)
            #expect(problems.isEmpty, "\(problems.map(\.description))")
        }
    }

    @Test func aDoubleFollowingTheProfilePassesTheLibrary() async throws {
        let results = try await Self.run(FoundFlowClients.followsTheProfile)
        #expect(results.count >= 8)
        for (file, result) in results.sorted(by: { $0.key < $1.key }) {
            #expect(result.status == .passed, "\(file): \(result.failure?.message ?? "")")
        }
    }

    /// One broken double per rule kind the profile states: a sent value, a required field, a digits bound, what a
    /// success shows, and a feedback's text.
    @Test(arguments: [
        (FoundFlowClients.sendsMissing, "happy-path-closes.json", "KAN-34 send FR-004"),
        (FoundFlowClients.acceptsEitherContact, "validation-phone-required.json", "KAN-34 send FR-008"),
        (FoundFlowClients.acceptsSixDigitPhones, "validation-phone-too-few-digits.json", "KAN-34 align FR-010a"),
        (FoundFlowClients.endsOnSummary, "happy-path-closes.json", "069 FR-008"),
        (FoundFlowClients.ownAlertText, "fault-create-500-try-again.json", "069 FR-010"),
    ])
    func aDoubleBreakingOneRuleFailsCitingIt(driver: FoundFlowClients.Driver, file: String, citation: String) async throws {
        let results = try await Self.run(driver)
        let result = try #require(results[file])
        let message = result.failure?.message ?? "(no failure)"
        #expect(result.status == .failed, "\(driver.description) passed \(file)")
        #expect(message.contains(citation), "\(driver.description): \(message)")
    }

    /// The reference client has the found flow too (FoundContactForm): `start`'s flow opens it, and it passes the library.
    @Test func theReferenceClientPassesTheFoundLibrary() async throws {
        let results = try await Self.run(PetSpotClientDriver())
        #expect(results.count >= 8)
        for (file, result) in results.sorted(by: { $0.key < $1.key }) {
            #expect(result.status == .passed, "\(file): \(result.failure?.message ?? "")")
        }
    }

    /// spotcheck-client, the reference client behind the process protocol, opens the found flow from `start`'s flow too.
    @Test func theReferenceClientOverTheProtocolPassesTheFoundLibrary() async throws {
        let client = try LibraryRunTests.builtClient()
        let results = try await Self.run(ProcessDriver(command: "'\(client.path)'"))
        #expect(results.count >= 8)
        for (file, result) in results.sorted(by: { $0.key < $1.key }) {
            #expect(result.status == .passed, "\(file): \(result.failure?.message ?? "")")
        }
    }

    /// The missing flow's form on the found library fails where the flows differ: the status it sends is MISSING.
    @Test func theMissingFlowsFormFailsTheFoundLibraryOnItsStatus() async throws {
        struct MissingFlowOnly: ClientDriver {
            var description: String { "PetSpotClient, missing flow whatever start asks" }
            func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
                var context = context
                context.flow = "reportMissing"
                return try await PetSpotClientDriver().open(context)
            }
        }
        let results = try await Self.run(MissingFlowOnly())
        let happy = try #require(results["happy-path-closes.json"])
        let message = happy.failure?.message ?? "(no failure)"
        #expect(happy.status == .failed)
        #expect(message.contains("KAN-34 send FR-004"), "\(message)")
    }

    @Test func aSuccessShowingThePasswordFailsTheCloseRule() async throws {
        let results = try await Self.run(FoundFlowClients.endsOnSummary)
        let message = try #require(results["happy-path-closes.json"]?.failure?.message)
        #expect(message.contains("screen: expected closed"), "\(message)")
        #expect(message.contains("managementPassword"), "\(message)")
    }
}
