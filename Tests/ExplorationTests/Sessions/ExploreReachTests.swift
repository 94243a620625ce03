import ContractKit
import Exploration
import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// Where sessions reach since issue 28: each kind finds a client double whose bug shows only there, with the default
/// budget on seed 1, and the minimal session passes once the reach is taken out of it.
@Suite("explore reaches further")
struct ExploreReachTests {
    struct Case: Sendable {
        let name: String
        let driver: any ClientDriver
        let rules: Set<ModelRule>
        /// Whether the session has the reach that shows the bug.
        let reaches: @Sendable (Session) -> Bool
        /// The session without that reach.
        let strip: @Sendable (Session) -> Session
    }

    static let cases: [Case] = [
        Case(name: "summer-time date sent with the winter offset", driver: ReachBugClients.winterOffsetDate, rules: [.bodyCarriesCurrentInputs],
             reaches: { $0.lastSeenDate.map(DaylightSavingDates.all.contains) == true },
             strip: { var s = $0; s.lastSeenDate = nil; return s }),
        Case(name: "a fixed short request timeout", driver: ReachBugClients.FixedShortTimeout(), rules: [.twoStepSubmission, .alertFitsCause],
             reaches: { $0.faults.contains(where: \.isTimed) },
             strip: { var s = $0; s.faults.removeAll(where: \.isTimed); return s }),
        Case(name: "list cached by its query", driver: ReachBugClients.ListCachedByQuery(), rules: [.listWithPhotos],
             reaches: { s in s.actions.firstIndex { $0 == .submit || $0 == .doubleTap }.map { tap in s.actions[tap...].contains(.list) } == true },
             strip: { s in
                 var out = s
                 let tap = s.actions.firstIndex { $0 == .submit || $0 == .doubleTap } ?? s.actions.count
                 out.actions = s.actions.enumerated().filter { $0.offset < tap || $0.element != .list }.map(\.element)
                 return out
             }),
        // After a broken connection the model cannot count the attempt's calls, so the first check that fails can be the
        // screen: the second submission succeeded where the planned fault should have kept the user on the form.
        Case(name: "a later double tap submits twice", driver: ReachBugClients.LaterDoubleTapSubmitsTwice(), rules: [.twoStepSubmission, .stayOnForm],
             reaches: { s in s.actions.firstIndex { [.submit, .doubleTap, .retry].contains($0) }.map { s.actions[($0 + 1)...].contains(.doubleTap) } == true },
             strip: { s in
                 var out = s
                 let first = s.actions.firstIndex { [.submit, .doubleTap, .retry].contains($0) } ?? s.actions.count
                 out.actions = s.actions.enumerated().map { $0.offset > first && $0.element == .doubleTap ? .submit : $0.element }
                 return out
             }),
        Case(name: "microchip dropped from the body", driver: ReachBugClients.dropsMicrochip, rules: [.bodyCarriesCurrentInputs],
             reaches: { $0.microchip != nil },
             strip: { var s = $0; s.microchip = nil; return s }),
        // Report data from the value classes of issue 35: what a user types or pastes in steps 1-3.
        Case(name: "accents stripped from the report text", driver: FlowRuleClients.stripsDiacritics, rules: [.bodyCarriesCurrentInputs],
             reaches: { s in s.reportText.values.contains { $0.folding(options: .diacriticInsensitive, locale: nil) != $0 } },
             strip: { var s = $0; s.reportText = [:]; return s }),
        Case(name: "description cut at 255 characters", driver: FlowRuleClients.cutsDescriptionAt255, rules: [.bodyCarriesCurrentInputs],
             reaches: { ($0.reportText["description"]?.count ?? 0) > 255 },
             strip: { var s = $0; s.reportText = [:]; return s }),
    ]

    @Test("found with the default budget on seed 1, only where the session reaches", arguments: cases.indices)
    func foundOnlyThere(_ index: Int) async throws {
        let c = Self.cases[index]
        let report = try await ExplorationSupport.explore(c.driver)
        let found = try #require(report.counterexample, "\(c.name): no counterexample in \(report.sessions) sessions")
        #expect(c.rules.contains(found.failure.rule), "\(c.name): \(found.failure.rule.rawValue): \(found.failure.headline)")
        #expect(c.reaches(found.shrunk), "\(c.name): the minimal session does not reach: \(found.shrunk)")
        // Taken out of the minimal session, the reach takes the bug with it.
        let without = try await ExplorationSupport.runner(c.driver).run(c.strip(found.shrunk))
        #expect(without.failure == nil, "\(c.name): fails without the reach too: \(without.failure?.headline ?? "")")
        let (lint, result) = try await ExplorationSupport.replay(found, seed: report.seed, driver: c.driver)
        #expect(lint.isEmpty, "\(c.name): \(lint.map(\.description))")
        #expect(result.status == .failed, "\(c.name): the saved scenario passes")
    }
}

/// The generator's reach and the model's expectations for it, without a client.
@Suite("session reach")
struct SessionReachTests {
    static let sessions = (0..<200).map(SessionGenerator(seed: 1).session)

    @Test("the default budget on seed 1 has every new kind of session")
    func everyKindGenerated() {
        let s = Self.sessions
        #expect(s.contains { $0.lastSeenDate.map(DaylightSavingDates.summer.contains) == true })
        #expect(s.contains { $0.lastSeenDate.map(DaylightSavingDates.changes.contains) == true })
        #expect(s.contains { $0.microchip != nil })
        for percent in [50, 100, 150] {
            #expect(s.contains { $0.faults.contains { $0.kind == .lateAnswer(percent: percent) } }, "no delay at \(percent) %")
            #expect(s.contains { $0.faults.contains { $0.kind == .slowAnswer(percent: percent) } }, "no slow body at \(percent) %")
        }
        #expect(s.contains { session in session.actions.firstIndex(of: .cancel).map { session.actions[$0...].contains(.doubleTap) } == true })
        #expect(s.contains { session in session.actions.firstIndex(of: .goOnline).map { session.actions[$0...].contains(.doubleTap) } == true })
        #expect(s.contains { $0.actions.last == .list })
    }

    @Test("the daylight-saving days are the zones' changes")
    func changesAreTransitions() throws {
        var calendar = Calendar(identifier: .gregorian)
        var found: Set<String> = []
        for zone in DaylightSavingDates.zones {
            let tz = try #require(TimeZone(identifier: zone))
            calendar.timeZone = tz
            var moment = try #require(calendar.date(from: DateComponents(year: 2024, month: 1, day: 1)))
            while let next = tz.nextDaylightSavingTimeTransition(after: moment), calendar.component(.year, from: next) < 2026 {
                let day = calendar.dateComponents([.year, .month, .day], from: next)
                found.insert(String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0))
                moment = next
            }
        }
        #expect(found == Set(DaylightSavingDates.changes))
        #expect(DaylightSavingDates.all.contains("2025-03-29") && DaylightSavingDates.all.contains("2025-03-31"))
        #expect(DaylightSavingDates.all.contains("2024-11-02") && DaylightSavingDates.all.contains("2024-11-04"))
    }

    static func expectations(_ session: Session) throws -> [JSONValue] {
        let runner = try ExplorationSupport.runner(PetSpotClientDriver())
        return runner.model(session, name: "", summary: "").steps.map { $0.document["expect"] ?? .null }
    }

    @Test("an answer at 150 % of the timeout must time out, at 50 % must arrive, near 100 % may do either")
    func timingExpectations() throws {
        func first(_ percent: Int, _ step: FlowCalls.Step = .create) throws -> JSONValue {
            try #require(try Self.expectations(Session(actions: [.submit], faults: [PlannedFault(step, of: SessionForm.default.calls, call: 1,
                                                                                                 kind: .lateAnswer(percent: percent))])).first)
        }
        #expect(try first(150)["outcome"] == "failure")
        // Every alert the seeds allow for a time-out.
        #expect(try first(150)["alert"]?["kind"] == .array(SeedModel.alertKinds(.timedOut).map { .string($0) }))
        #expect(try first(50)["outcome"] == "success")
        #expect(try first(100)["outcome"] == ["success", "failure"])
        #expect(try first(125, .upload)["outcome"] == ["success", "failure"])
        let runner = try ExplorationSupport.runner(PetSpotClientDriver())
        let doc = runner.model(Session(actions: [.submit], faults: [PlannedFault(.upload, of: SessionForm.default.calls, call: 1, kind: .slowAnswer(percent: 50))]), name: "", summary: "").document
        #expect(doc["client"]?["timeoutMs"] == .number(Double(SeedModel.timingTimeoutMs)))
    }

    @Test("with a microchip, Try Again after a stored create meets 409 and the generic alert")
    func microchipConflict() throws {
        var session = Session(actions: [.submit, .retry], faults: [PlannedFault(.upload, of: SessionForm.default.calls, call: 1, kind: .status(500))])
        session.microchip = "981000123456789"
        let e = try Self.expectations(session)
        #expect(e.count == 2)
        #expect(e[1]["outcome"] == "failure")
        #expect(e[1]["journal"]?["order"] == ["createAnnouncement"])
        #expect(e[1]["alert"]?["kind"] == .array(SeedModel.alertKinds(.httpStatus).map { .string($0) }))
    }

    @Test("a list after a create counts the new announcement; after a failed upload it does not")
    func listAfterCreate() throws {
        let after = try Self.expectations(Session(actions: [.list, .submit, .list], faults: []))
        #expect(after.map { $0["listed"] } == [.number(0), nil, .number(1)])
        let failed = try Self.expectations(Session(actions: [.submit, .cancel, .list], faults: [PlannedFault(.upload, of: SessionForm.default.calls, call: 1, kind: .status(503))]))
        #expect(failed.last?["listed"] == .number(0))
        let unreadable = try Self.expectations(Session(actions: [.submit, .list], faults: [PlannedFault(.upload, of: SessionForm.default.calls, call: 1, kind: .malformed)]))
        #expect(unreadable.last?["listed"] == .number(1), "an upload answered with an unreadable body still stored the photo")
    }

    @Test("the reference client passes the reach sessions of seed 1")
    func referencePasses() async throws {
        let runner = try ExplorationSupport.runner(PetSpotClientDriver())
        let reaching = Self.sessions.enumerated().filter { _, s in s.microchip != nil || s.faults.contains(where: \.isTimed) }.prefix(12)
        for (index, session) in reaching {
            let outcome = try await runner.run(session)
            #expect(outcome.failure == nil, "session \(index): \(outcome.failure?.message ?? "")")
        }
    }
}

/// The library alone now catches what only exploration caught: the photo uploaded with the first announcement's
/// password, and a list cached by its query.
@Suite("library gaps closed")
struct LibraryGapTests {
    static func run(_ file: String, _ driver: any ClientDriver) async throws -> ScenarioResult {
        let library = try ScenarioLibrary.load(from: ScenarioLibrary.bundledDirectory)
        let scenario = try #require(library.scenarios.first { $0.displayPath == file })
        return await ScenarioRunner(driver: driver, targets: EmbeddedBackendProvider(contracts: try ExplorationSupport.contracts()), seed: 1).run(scenario)
    }

    @Test func passwordOpensPhotoScenarioCatchesTheUploadToTheFirstAnnouncement() async throws {
        let broken = try await Self.run("retry-after-step2-failure-password-opens-photo.json", ExploreBugClients.UploadsToFirstAnnouncement())
        #expect(broken.status == .failed)
        #expect(broken.failure?.mismatches.contains { $0.subject == "summary password" } == true, "\(broken.failure?.message ?? "")")
        #expect(try await Self.run("retry-after-step2-failure-password-opens-photo.json", PetSpotClientDriver()).status == .passed)
    }

    @Test func listAfterCreateScenarioCatchesAListCachedByQuery() async throws {
        let broken = try await Self.run("list-after-create-same-query.json", ReachBugClients.ListCachedByQuery())
        #expect(broken.status == .failed)
        #expect(broken.failure?.headline.contains("listed announcements: expected 4, got 3") == true, "\(broken.failure?.message ?? "")")
        #expect(try await Self.run("list-after-create-same-query.json", PetSpotClientDriver()).status == .passed)
    }
}
