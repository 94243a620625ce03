import ClientDoubles
import ContractKit
import Exploration
import Foundation
import Testing

@testable import ScenarioEngine

/// The calls a session plans faults on and expects in the journal come from the profile and the contract set, so an
/// API that names its create, upload, read and list otherwise is explored in its own names (issue 44, point 4).
@Suite struct FlowCallsTests {
    @Test func theBundledFlowsCallsAreItsContracts() {
        let calls = SessionForm.default.calls
        #expect([calls.create, calls.upload, calls.read, calls.list] == ["createAnnouncement", "uploadPhoto", "getAnnouncement", "listAnnouncements"])
    }

    @Test func sessionsOverARenamedContractSetNameOnlyItsContracts() throws {
        let renamed = try RenamedContracts.load()
        let form = SessionForm(profile: SessionForm.default.profile, contracts: renamed)
        #expect([form.calls.create, form.calls.upload, form.calls.read] == ["openCase", "attachScan", "readCase"])
        let runner = SessionRunner(driver: StaticDriver(), contracts: renamed,
                                   writer: ScenarioDocument(baseReport: try ScenarioDocument.bundledDefaultReport()), seed: 7, form: form)
        let generator = SessionGenerator(seed: 7, form: form)
        var faulted: Set<String> = []
        var journalCalls: Set<String> = []
        for index in 0..<300 {
            let document = runner.model(generator.session(index), name: "s\(index)", summary: "").document
            let text = document.serialized()
            for old in ["createAnnouncement", "uploadPhoto", "getAnnouncement"] {
                #expect(!text.contains(old), "session \(index) names \(old): \(text)")
            }
            for rule in document["faults"]?.arrayValue ?? [] { if let id = rule["contract"]?.stringValue { faulted.insert(id) } }
            for step in document["steps"]?.arrayValue ?? [] {
                for id in step["expect"]?["journal"]?["calls"]?.objectValue?.keys ?? [] { journalCalls.insert(id) }
                for id in step["expect"]?["journal"]?["order"]?.arrayValue?.compactMap(\.stringValue) ?? [] { journalCalls.insert(id) }
            }
        }
        #expect(faulted == ["openCase", "attachScan", "readCase"])
        #expect(journalCalls.isSuperset(of: ["openCase", "attachScan", "readCase"]))
    }
}

/// A driver the model never calls: modelling a session does not run it.
private struct StaticDriver: ClientDriver {
    var description: String { "a driver modelling never opens" }
    func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession { throw DriverError("modelling a session does not open a client") }
}
