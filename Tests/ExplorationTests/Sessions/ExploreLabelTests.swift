import ContractKit
@testable import Exploration
import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// The rule and headline a counterexample is reported under name its cause (issue 28 "Wrong labels").
@Suite("explore: labels")
struct ExploreLabelTests {
    static let pets: [StoredPet] = [
        StoredPet(id: "3c1d5e9f-4a61-4283-9d94-e0f1a2b3c401", status: "FOUND", sex: "MALE", lastSeenDate: "2025-06-15", breed: "Beagle", age: 3,
                  description: "Brown collar, friendly", microchipNumber: "123456789012", reward: "100 PLN", phone: "600700800", email: nil, hasPhoto: true),
        StoredPet(id: "3c1d5e9f-4a61-4283-9d94-e0f1a2b3c402", status: "CLOSED", sex: "FEMALE", lastSeenDate: "2024-02-29", breed: nil, age: nil,
                  description: nil, microchipNumber: nil, reward: nil, phone: nil, email: "owner@example.com", hasPhoto: false),
    ]

    @Test("a failed list step breaks the list rule, never details-load-error")
    func listStepRule() throws {
        var session = Session(actions: [.list, .submit], faults: [])
        session.stored = Self.pets
        let steps = try ExplorationSupport.runner(PetSpotClientDriver()).model(session, name: "", summary: "").steps
        #expect(steps.first?.kind == .list)
        for subject in ["calls to listAnnouncements", "requests", "call order", "outcome", "listed announcements"] {
            let failure = ScenarioFailure(stepNumber: 1, action: "list", pointer: "/steps/0", mismatches: [Mismatch(subject, expected: "1", actual: "0")])
            #expect(SessionFailure(failure, steps: steps).rule == .listWithPhotos, "\(subject)")
        }
    }

    @Test("details of another announcement than the one opened: one id mismatch, not a field difference per value")
    func wrongAnnouncement() async throws {
        var session = Session(actions: [.readDetails(pet: 0), .readDetails(pet: 1)], faults: [])
        session.stored = Self.pets
        let outcome = try await ExplorationSupport.runner(ExplorationClientDoubles.ShowsFirstLoadedPet()).run(session)
        let failure = try #require(outcome.failure)
        #expect(failure.rule == .detailsPresentation)
        #expect(failure.headline == "step 2 (loadDetails): details record: details show record \(Self.pets[0].id), expected \(Self.pets[1].id)")
        let detailLines = failure.message.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("details ") }
        #expect(detailLines.count == 1, "\(failure.message)")
    }

    @Test("a double tap after Cancel that runs two submissions is judged by the call order, not by the screen it ends on")
    func doubleTapAfterCancel() async throws {
        let session = Session(actions: [.submit, .cancel, .doubleTap],
                              faults: [PlannedFault(.create, of: SessionForm.default.calls, call: 1, kind: .status(500)),
                                       PlannedFault(.create, of: SessionForm.default.calls, call: 2, kind: .status(500))])
        let outcome = try await ExplorationSupport.runner(SpecBreakingClients.SubmitsTwiceOnDoubleTap()).run(session)
        let failure = try #require(outcome.failure)
        #expect(failure.rule == .twoStepSubmission)
        #expect(failure.headline.hasPrefix("step 3 (doubleTapContinue): call order:"), "\(failure.headline)")
    }

    @Test("the headline is the first failed check of the minimal session, with the saved file's step numbers")
    func headlineAfterShrinking() async throws {
        let driver = ExploreBugClients.AnalyticsOnFailure()
        let explorer = Explorer(runner: try ExplorationSupport.runner(driver), seed: 1, jobs: 2, budget: .standard)
        // A long session whose analytics bug shows late: the shrinker must renumber the step the summary quotes.
        let long = Session(actions: [.edit(field: "reward", value: "  $5 "), .idle, .edit(field: "phone", value: "600-700-800"), .submit, .retry],
                           faults: [PlannedFault(.create, of: SessionForm.default.calls, call: 1, kind: .status(503))])
        let original = try await explorer.runner.run(long)
        let failure = try #require(original.failure)
        #expect(failure.headline.hasPrefix("step 4 (submit)"), "\(failure.headline)")
        let c = try #require(try await explorer.shrink(long, index: 0, failure: failure, originalSteps: original.steps.count))
        #expect(c.steps.shrunk == 1, "\(c.shrunk)")
        #expect(c.failure.headline.hasPrefix("step \(c.steps.shrunk) "), "\(c.failure.headline)")
        #expect(c.document["summary"]?.stringValue?.contains("First failure: \(c.failure.headline)") == true)
        #expect(c.failure.rule == .analyticsOnlyOnSuccess)
    }

    @Test("stored announcements shrink field by field and keep one contact")
    func storedFields() {
        let candidates = StoredPetShrinking.candidates(Self.pets[0])
        #expect(candidates.contains { $0.microchipNumber == nil && $0.breed == "Beagle" })
        #expect(candidates.contains { $0.status == "MISSING" })
        #expect(candidates.allSatisfy { $0.phone != nil || $0.email != nil })
        #expect(StoredPetShrinking.candidates(Self.pets[1]).allSatisfy { $0.email != nil })
    }
}
