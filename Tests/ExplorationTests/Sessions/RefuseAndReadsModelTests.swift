import ContractKit
@testable import Exploration
import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// The model's handling of an unreachable server (`refuse`) and of details and list reads of stored announcements.
@Suite("explore: refuse and reads")
struct RefuseAndReadsModelTests {
    static let pet = StoredPet(
        id: "3c1d5e9f-4a61-4283-9d94-e0f1a2b3c499", status: "ACTIVE", sex: "FEMALE", lastSeenDate: "2025-03-05", breed: nil, age: 4,
        description: nil, microchipNumber: "123456789012", reward: nil, phone: nil, email: "owner@example.com", hasPhoto: false)

    static func steps(_ session: Session) throws -> [JSONValue] {
        try ExplorationSupport.runner(PetSpotClientDriver()).model(session, name: "", summary: "").steps.map(\.document)
    }

    @Test("a refused server stays refused for every tap until the faults are lifted, and either alert is allowed")
    func refuseUntilLifted() throws {
        let session = Session(actions: [.submit, .retry, .serverBack, .retry],
                              faults: [PlannedFault(.create, of: SessionForm.default.calls, call: 1, kind: .refuse)])
        let steps = try Self.steps(session)
        #expect(steps.map { $0["action"]?.stringValue } == ["submit", "retry", "setFaults", "retry"])
        for step in steps.prefix(2) {
            #expect(step["expect"]?["outcome"]?.stringValue == "failure")
            #expect(step["expect"]?["journal"]?["noRequests"] == .bool(true))
            let kinds = Set(step["expect"]?["alert"]?["kind"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            #expect(kinds == ["noConnection", "generic"], "SeedAlertPolicy allows both readings for a refused connect")
        }
        #expect(steps[3]["expect"]?["outcome"]?.stringValue == "success")
    }

    @Test("refuse after step 1's answer fails the upload without reaching the server, and stays so until lifted")
    func refuseAfterAnswer() throws {
        let session = Session(actions: [.submit, .retry, .serverBack, .retry],
                              faults: [PlannedFault(.create, of: SessionForm.default.calls, call: 1, kind: .refuseAfterAnswer)])
        let steps = try Self.steps(session)
        #expect(steps[0]["expect"]?["journal"]?["order"] == ["createAnnouncement"])
        #expect(steps[1]["expect"]?["journal"]?["noRequests"] == .bool(true))
        #expect(steps[3]["expect"]?["journal"]?["order"] == ["createAnnouncement", "uploadPhoto"])
    }

    @Test("the reference client passes refuse sessions; a client that clears the form on Cancel does not")
    func refuseEndToEnd() async throws {
        let session = Session(actions: [.submit, .cancel, .serverBack, .submit],
                              faults: [PlannedFault(.create, of: SessionForm.default.calls, call: 1, kind: .refuseAfterAnswer)])
        let good = try await ExplorationSupport.runner(PetSpotClientDriver()).run(session)
        #expect(good.failure == nil, "\(good.failure?.message ?? "")")
        let bad = try await ExplorationSupport.runner(BrokenClients.ClearsInputsOnCancel()).run(session)
        #expect(bad.failure?.rule == .inputsSurvive)
    }

    @Test("the generator schedules refuse, from the start and after an answer, mostly lifted later")
    func generated() {
        let sessions = (0..<400).map(SessionGenerator(seed: 1).session)
        #expect(sessions.contains { $0.faults.contains { $0.kind == .refuse } && $0.actions.contains(.serverBack) })
        #expect(sessions.contains { $0.faults.contains { $0.kind == .refuseAfterAnswer } && $0.actions.contains(.serverBack) })
        #expect(sessions.contains { $0.faults.contains { $0.kind == .refuse } && !$0.actions.contains(.serverBack) })
        #expect(sessions.contains { $0.stored.contains { $0.status == "ACTIVE" } && $0.stored.contains { $0.status == "CLOSED" } })
    }

    @Test("details are derived from seed 002: ACTIVE as a red MISSING, date MMM d, yyyy, dashes, only the available contact")
    func detailsPresentation() {
        let p = DetailsModel.presentation(of: Self.pet)
        #expect(p["status"] == ["MISSING"])
        #expect(p["statusColor"] == ["red"])
        #expect(p["lastSeenDate"] == ["Mar 5, 2025", "Mar 05, 2025"])
        #expect(p["microchipNumber"] == ["123-456-789-012"])
        #expect(p["breed"] == ["—"])
        #expect(p["description"] == ["—"])
        #expect(p["phone"] == ["(none)"])
        #expect(p["photo"] == ["Image not available"])
        var closed = Self.pet
        closed.status = "CLOSED"
        closed.lastSeenDate = "2024-12-30"
        #expect(DetailsModel.presentation(of: closed)["statusColor"] == ["gray"])
        #expect(DetailsModel.presentation(of: closed)["lastSeenDate"] == ["Dec 30, 2024"])
    }

    @Test("shrinking drops the stored announcements no read opens and renumbers the reads")
    func shrinkStored() {
        var other = Self.pet
        other.id = "3c1d5e9f-4a61-4283-9d94-e0f1a2b3c498"
        var session = Session(actions: [.readDetails(pet: 1), .submit], faults: [])
        session.stored = [Self.pet, other]
        let candidate = SessionShrinking.candidates(session).first { $0.stored.count == 1 }
        #expect(candidate?.stored == [other])
        #expect(candidate?.actions == [.readDetails(pet: 0), .submit])
    }

    @Test("failed reads show the error and retry until the details load; the stored pet is inline in the scenario")
    func readsWithFaults() async throws {
        var session = Session(actions: [.readDetails(pet: 0), .list, .submit],
                              faults: [PlannedFault(.read, of: SessionForm.default.calls, call: 1, kind: .status(500)),
                                       PlannedFault(.read, of: SessionForm.default.calls, call: 2, kind: .status(503))])
        session.stored = [Self.pet]
        let runner = try ExplorationSupport.runner(PetSpotClientDriver())
        let (steps, document) = runner.model(session, name: "reads", summary: "")
        #expect(steps.map { $0.document["action"]?.stringValue } == ["loadDetails", "retryDetails", "retryDetails", "list", "submit"])
        #expect(steps[1].document["expect"]?["details"]?["message"]?.stringValue == DetailsModel.errorMessage)
        #expect(steps[3].document["expect"]?["listed"] == .number(0))
        #expect(document["backend"]?["fixtures"]?["announcements"]?.arrayValue?.count == 1)
        let outcome = try await runner.run(session)
        #expect(outcome.failure == nil, "\(outcome.failure?.message ?? "")")
    }
}
