import ContractKit
@testable import Exploration
import Foundation
import Testing

@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// `explore --profile ios-found-pet` (issue 46): the found flow's form, input rules and closing success come from its
/// profile, so its sessions type into its own fields, try its own rules' classes and are judged by its own rules.
@Suite struct ExploreFoundFlowTests {
    static let profile = Result { () throws(ScenarioLoadError) in
        try ClientProfile.load("ios-found-pet", scenariosDirectory: ScenarioLibrary.bundledDirectory)
    }

    static func form() throws -> SessionForm { SessionForm(profile: try profile.get()) }

    /// Explores the found flow with `driver`.
    static func explore(_ driver: any ClientDriver, runs: Int) async throws -> ExplorationReport {
        let form = try form()
        let fixtures = form.profile.libraryDirectory.appendingPathComponent("fixtures")
        let writer = ScenarioDocument(baseReport: try ScenarioDocument.defaultReport(fixtures: fixtures))
        let runner = SessionRunner(driver: driver, contracts: try ExplorationSupport.contracts(), writer: writer, seed: 1, form: form)
        return try await Explorer(runner: runner, seed: 1, jobs: 2, budget: .runs(runs)).explore()
    }

    @Test func theFormsFieldsRulesAndClassesAreTheProfiles() throws {
        let form = try Self.form()
        #expect(form.fields == ["phone", "email", "caregiverPhone", "currentAddress"])
        #expect(form.validated == ["phone", "email", "caregiverPhone"])
        let rules = form.exploredRules.map { "\($0.field) \($0.kind)" }
        #expect(rules.contains { $0.hasPrefix("caregiverPhone digitText") }, "\(rules)")
        #expect(!rules.contains { $0.hasPrefix("reward") }, "\(rules)")
        #expect(form.sendableContacts.map(\.field) == ["caregiverPhone", "email", "phone"])
        for contact in form.sendableContacts { #expect(form.verdict(contact.field, contact.value) == .valid, "\(contact)") }
        // 200 sessions try every class of every rule at least once.
        let generator = SessionGenerator(seed: 1, form: form)
        let tried = Set((0..<200).compactMap { generator.session($0).inputClass })
        for planned in generator.plannedClasses.map(\.name) { #expect(tried.contains(planned), "\(planned) never tried") }
        let typed = Set((0..<200).flatMap { generator.session($0).actions.compactMap { if case .edit(let field, _) = $0 { field } else { nil } } })
        #expect(typed == Set(form.fields), "\(typed)")
    }

    @Test func aRejectedTapExpectsTheProfilesMessagesAndASuccessClosesWithoutAPassword() throws {
        let model = SeedModel(startInputs: ["phone": "600 700 800", "email": "a@b.co", "caregiverPhone": "", "currentAddress": ""], form: try Self.form())
        let rejected = model.steps(for: Session(actions: [.edit(field: "phone", value: ""), .submit], faults: []))
        #expect(rejected.last?.document["expect"]?["fields"] == ["phone": "Enter a valid phone number"])
        // The caregiver's phone has no message of its own in the profile: the texts stay open, the tap still sends nothing.
        let caregiver = model.steps(for: Session(actions: [.edit(field: "caregiverPhone", value: "12"), .submit], faults: []))
        #expect(caregiver.last?.kind == .rejectedSubmit)
        #expect(caregiver.last?.document["expect"]?["fields"] == nil)
        let success = model.steps(for: Session(actions: [.submit], faults: []))
        #expect(success.last?.kind == .attempt(succeeds: true))
        #expect(success.last?.document["expect"]?["managementPassword"] == nil)
        #expect(success.last?.document["expect"]?["analytics"] == [])
    }

    @Test func theReferenceClientsFoundFlowPassesAnExplore() async throws {
        let report = try await Self.explore(PetSpotClientDriver(), runs: 120)
        #expect(report.counterexample == nil, "\(report.counterexample?.failure.message ?? "")")
        #expect(report.sessions == 120)
    }

    @Test func aFoundClientWhoseSuccessShowsTheSummaryIsCaught() async throws {
        let report = try await Self.explore(SummaryOnSuccess(), runs: 60)
        let failure = try #require(report.counterexample?.failure.message)
        #expect(failure.contains("managementPassword") && failure.contains("closes"), "\(failure)")
    }
}

/// The reference client with one bug: a success hands a password to a summary, which the found flow does not have
/// (069 FR-008: the flow closes).
struct SummaryOnSuccess: ClientDriver {
    var description: String { "found flow, broken: a success shows the summary" }

    func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
        Session(inner: try await PetSpotClientDriver().open(context))
    }

    struct Session: ClientSession {
        let inner: any ClientSession

        func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
            var observation = try await inner.perform(action)
            if observation.outcome == .success, observation.managementPassword == nil { observation.managementPassword = "123456" }
            return observation
        }

        func close() async { await inner.close() }
        func diagnostics() async -> String? { await inner.diagnostics() }
    }
}
